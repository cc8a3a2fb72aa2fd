import { isDataRejection, sqlStateOf, type Db, type Logger } from '@gw/platform';
import type { SpendRecord } from './spend-record.js';
import type { SpendSpill } from './spend-spill.js';
import { insertTracesOf } from './traces/trace-row.js';

export interface SpendWriterHooks {
  onDepth?: (depth: number) => void;
  onWriteFailure?: () => void;
  onSpilled?: (count: number) => void;
  onReplayed?: (count: number) => void;
  /** Records lost: buffer full and no spill file (or the disk refused it). */
  onDropped?: (count: number) => void;
  /** Records the store refused for their own data, set aside in the spill folder's rejected file. */
  onRejected?: (count: number) => void;
}

export interface SpendWriterOptions extends SpendWriterHooks {
  batchSize?: number;
  flushIntervalMs?: number;
  /** Records held in memory while the store is unreachable; past it new records go to the spill file. */
  maxBuffered?: number;
  /** Overflow and shutdown spill (`GW_DATA_DIR/spend-spill`); without it a full buffer drops records. */
  spill?: SpendSpill;
}

const columns = [
  'id',
  'ts',
  'endpoint',
  'method',
  'status',
  'outcome',
  'provider',
  'model',
  'reasoning_effort',
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'latency_ms',
  'upstream_latency_ms',
  'cost_usd',
  'savings_usd',
  'tokens_saved',
  'billing_mode',
  'user_id',
  'team',
  'key_id',
  'key_type',
  'stream',
  'optimization_status',
  'optimization_reason',
  'optimizer_latency_ms',
  'attempts',
  'target',
  'error_code',
  'trace_id',
  'attribution',
  'usage_estimated',
  'evidence_class',
] as const;

/** A record under its column names, for `json_populate_recordset` (the trace writer sends the same rows). */
export function rowOf(record: SpendRecord): Record<(typeof columns)[number], unknown> {
  return {
    id: record.id,
    ts: record.ts,
    endpoint: record.endpoint,
    method: record.method,
    status: record.status,
    outcome: record.outcome,
    provider: record.provider,
    model: record.model,
    reasoning_effort: record.reasoningEffort,
    prompt_tokens: record.promptTokens,
    completion_tokens: record.completionTokens,
    total_tokens: record.totalTokens,
    cache_read_tokens: record.cacheReadTokens,
    cache_write_tokens: record.cacheWriteTokens,
    reasoning_tokens: record.reasoningTokens,
    latency_ms: record.latencyMs,
    upstream_latency_ms: record.upstreamLatencyMs,
    cost_usd: record.costUsd,
    savings_usd: record.savingsUsd,
    tokens_saved: record.tokensSaved,
    billing_mode: record.billingMode,
    user_id: record.user,
    team: record.team,
    key_id: record.keyId,
    key_type: record.keyType,
    stream: record.stream,
    optimization_status: record.optimizationStatus,
    optimization_reason: record.optimizationReason,
    optimizer_latency_ms: record.optimizerLatencyMs,
    attempts: record.attempts,
    target: record.target,
    error_code: record.errorCode,
    trace_id: record.traceId,
    attribution: record.attribution,
    // Records spilled before the column existed replay without the field.
    usage_estimated: record.usageEstimated === true,
    evidence_class: record.evidenceClass ?? null,
  };
}

/**
 * A whole batch is one JSON parameter expanded by Postgres into rows of `gw_spend`'s type, rather than a
 * `VALUES` list of 34 placeholders a row: one statement text whatever the batch size (prepared once per connection
 * instead of once per size), and one string to send instead of thousands of parameters serialised one by one.
 *
 * The same statement writes the traces of the calls among them (`$2`, their ids) from the rows it inserted: a
 * trace is its call's spend row read another way, so it is derived in the store instead of built, serialised and
 * sent a second time, and it is as durable as the row (journaled and replayed with it). A row that was already there
 * (a retry, a replay) inserts no trace either.
 */
const insertSql = `WITH written AS (
  INSERT INTO gw_spend (${columns.join(', ')})
  SELECT ${columns.join(', ')} FROM json_populate_recordset(NULL::gw_spend, $1::json)
  ON CONFLICT (id) DO NOTHING
  RETURNING *
)
${insertTracesOf('written', '$2::text[]')}`;

/** A record as the journal keeps it: with whether its call's trace is still to be written with it. */
type JournaledRecord = SpendRecord & { traced?: boolean };

const maxBackoffMs = 10_000;

/**
 * Writes spend records to `gw_spend` off the request path in batched multi-row inserts. Nothing is
 * lost across a Postgres outage, a restart or a crash during an outage:
 *   - a failed write moves every record waiting in memory to the on-disk journal (the spill file) at once, and while
 *     the store keeps failing new records are appended there directly; the journal is retried with exponential
 *     backoff (250 ms … 10 s) and replayed in order once the store answers (see `SpendSpill` for the fsync bound);
 *   - without a journal (or when the disk refuses), a failed batch stays at the head of the buffer and is retried;
 *   - the buffer is bounded (`maxBuffered`); past it, new records are appended to the spill file instead;
 *   - on stop, whatever the store did not take within the drain timeout is spilled too;
 *   - spilled records are replayed after the next successful write, and at start.
 * Ids make every retry and replay idempotent (`ON CONFLICT DO NOTHING`). A batch the store refuses for its data is
 * written record by record, so one bad record cannot hold every later one back; the records it still refuses go to
 * the spill folder's rejected file (kept for an operator, never replayed) and are counted and logged by id.
 */
export class SpendWriter {
  private buffer: SpendRecord[] = [];
  /** Queued records that are calls (not batch lines): their traces are written with them. */
  private readonly traced = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private replaying: Promise<void> | null = null;
  private backoffMs = 0;
  private stopped = false;
  /** The last write failed: records go to the on-disk journal at once until one succeeds. */
  private storeFailing = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly options: SpendWriterOptions = {},
  ) {}

  get depth(): number {
    return this.buffer.length;
  }

  private get batchSize(): number {
    return this.options.batchSize ?? 200;
  }

  /** Pick up records a previous process spilled and replay them in the background. */
  start(): void {
    this.options.spill?.scan();
    if (this.options.spill?.hasPending) this.schedule(0);
  }

  /** Queues a record; `traced`: it is a call's, and the call's trace is written with it. */
  enqueue(record: SpendRecord, traced = false): void {
    if (traced) this.traced.add(record.id);
    if (this.stopped) {
      this.overflow([record]);
      return;
    }
    // While the store is failing a record waits on disk, not in memory, so a crash cannot take it along; the retry
    // loop replays the journal once the store answers.
    if (this.storeFailing && this.journal([record])) {
      this.schedule(this.options.flushIntervalMs ?? 200);
      return;
    }
    if (this.buffer.length >= (this.options.maxBuffered ?? 100_000)) {
      this.overflow([record]);
      return;
    }
    this.buffer.push(record);
    this.options.onDepth?.(this.buffer.length);
    this.schedule(this.buffer.length >= this.batchSize ? 0 : (this.options.flushIntervalMs ?? 200));
  }

  /** Append to the on-disk journal; false without one or when the disk refuses (the caller keeps the records). */
  private journal(records: SpendRecord[]): boolean {
    if (records.length === 0 || this.options.spill?.append(records.map((record) => this.journaled(record))) !== true)
      return false;
    this.release(records);
    this.options.onSpilled?.(records.length);
    return true;
  }

  /** The record as the journal keeps it: a replay must still write its trace. */
  private journaled(record: SpendRecord): JournaledRecord {
    return this.traced.has(record.id) ? { ...record, traced: true } : record;
  }

  /** The records left the writer (stored, journaled, set aside or dropped): forget which were traced. */
  private release(records: readonly SpendRecord[]): void {
    if (this.traced.size === 0) return;
    for (const record of records) this.traced.delete(record.id);
  }

  /** Ids of the calls among `records`, whose traces the insert writes. */
  private tracedIds(records: readonly JournaledRecord[]): string[] {
    const ids: string[] = [];
    for (const record of records) if (record.traced === true || this.traced.has(record.id)) ids.push(record.id);
    return ids;
  }

  /** After a failed write: everything waiting in memory moves to the journal, where a crash cannot lose it. */
  private journalBuffer(): void {
    if (this.buffer.length === 0 || !this.journal(this.buffer)) return;
    this.buffer = [];
    this.options.onDepth?.(0);
  }

  /** Policy when memory is full: the oldest records keep retrying in memory, newer ones go to disk. */
  private overflow(records: SpendRecord[]): void {
    if (this.journal(records)) return;
    this.release(records);
    this.options.onDropped?.(records.length);
    this.logger.error({ dropped: records.length }, 'spend buffer full and no spill file: records dropped');
  }

  private schedule(delayMs: number): void {
    if (this.stopped || this.timer || this.flushing) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.flushNow().then(() => {
          if (this.hasWork) this.schedule(this.backoffMs || (this.options.flushIntervalMs ?? 200));
        });
      },
      Math.max(delayMs, this.backoffMs),
    );
    this.timer.unref();
  }

  private get hasWork(): boolean {
    return this.buffer.length > 0 || this.options.spill?.hasPending === true;
  }

  /** One flush at a time: the timer and `drain` share it, so a batch is never written and spliced twice. */
  private flushNow(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async insert(batch: readonly SpendRecord[]): Promise<void> {
    try {
      await this.db.query(insertSql, [JSON.stringify(batch.map(rowOf)), this.tracedIds(batch)]);
    } catch (error) {
      if (!isDataRejection(error)) throw error;
      for (const record of batch) await this.insertAlone(record);
    }
    this.release(batch);
  }

  private async insertAlone(record: SpendRecord): Promise<void> {
    try {
      await this.db.query(insertSql, [JSON.stringify([rowOf(record)]), this.tracedIds([record])]);
    } catch (error) {
      if (!isDataRejection(error)) throw error;
      const kept = this.options.spill?.reject(record) === true;
      if (kept) this.options.onRejected?.(1);
      else this.options.onDropped?.(1);
      this.logger.error(
        { id: record.id, code: sqlStateOf(error), kept },
        'spend record refused by the store; set aside',
      );
    }
  }

  private async flushOnce(): Promise<void> {
    const batch = this.buffer.slice(0, this.batchSize);
    try {
      if (batch.length > 0) {
        await this.insert(batch);
        this.buffer.splice(0, batch.length);
        this.options.onDepth?.(this.buffer.length);
      }
      if (this.options.spill?.hasPending) await this.replaySpill();
      this.backoffMs = 0;
      this.storeFailing = false;
    } catch (error) {
      this.storeFailing = true;
      this.journalBuffer();
      this.options.onWriteFailure?.();
      this.backoffMs = Math.min(Math.max(this.backoffMs * 2, 250), maxBackoffMs);
      this.logger.warn(
        { err: error, buffered: this.buffer.length, retryInMs: this.backoffMs },
        'spend write failed; will retry',
      );
    }
  }

  private replaySpill(): Promise<void> {
    const spill = this.options.spill;
    if (!spill) return Promise.resolve();
    this.replaying ??= spill
      .replay((batch) => this.insert(batch), this.batchSize)
      .then((count) => {
        if (count > 0) {
          this.options.onReplayed?.(count);
          this.logger.info({ replayed: count }, 'spilled spend records replayed into the store');
        }
      })
      .finally(() => {
        this.replaying = null;
      });
    return this.replaying;
  }

  /**
   * One write attempt now, after any attempt already in flight: what the timer would do next, without waiting for it
   * (tests observe a failed write's journaling this way instead of waiting for the flush interval).
   */
  async flush(): Promise<void> {
    await this.flushing;
    await this.flushNow();
  }

  /** Write everything buffered and spilled (shutdown, tests). Gives up after `timeoutMs`; returns what stayed in memory. */
  async drain(timeoutMs = 10_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.hasWork && Date.now() < deadline) {
      await this.flushNow();
      const waitMs = Math.min(this.backoffMs, Math.max(deadline - Date.now(), 0));
      if (this.hasWork && waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
    if (this.hasWork) this.schedule(this.backoffMs);
    return this.buffer.length;
  }

  /** Drain, then put anything the store did not take into the spill file so a restart replays it. */
  async stop(timeoutMs?: number): Promise<void> {
    const unsaved = await this.drain(timeoutMs);
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (unsaved === 0) {
      this.options.spill?.close();
      return;
    }
    const left = this.buffer.splice(0);
    this.options.onDepth?.(0);
    this.overflow(left);
    this.options.spill?.close();
    this.logger.error(
      { unsaved, spilled: this.options.spill !== undefined },
      'spend store unavailable at shutdown; records spilled for replay at next start',
    );
  }
}
