import type { Db, Keyring, Logger } from '@gw/platform';
import type { SpendRecord } from '../spend-record.js';

const columns = [
  'id',
  'created_at',
  'session_id',
  'user_id',
  'team',
  'key_id',
  'endpoint',
  'provider',
  'model',
  'status',
  'latency_ms',
  'prompt_tokens',
  'completion_tokens',
  'cost_usd',
  'optimization_status',
  'content_sealed',
] as const;

/** One batch is one JSON parameter expanded into `gw_traces` rows, as the spend writer does for `gw_spend`. */
const insertSql = `INSERT INTO gw_traces (${columns.join(', ')})
  SELECT ${columns.join(', ')} FROM json_populate_recordset(NULL::gw_traces, $1::json)
  ON CONFLICT (id) DO NOTHING`;

/**
 * The content-free trace of a call, read from its spend row: the trace shares the row's id (so the two join) and
 * carries only metadata. The call's conversation, when the optimizer named one, is the trace's session.
 */
export function traceOf(record: SpendRecord): Record<(typeof columns)[number], unknown> {
  return {
    id: record.id,
    created_at: record.ts,
    session_id: record.attribution.session ?? null,
    user_id: record.user,
    team: record.team,
    key_id: record.keyId,
    endpoint: record.endpoint,
    provider: record.provider,
    model: record.model,
    status: record.status,
    latency_ms: Math.round(record.latencyMs),
    prompt_tokens: record.promptTokens,
    completion_tokens: record.completionTokens,
    cost_usd: record.costUsd,
    optimization_status: record.optimizationStatus,
    content_sealed: null,
  };
}

/** What a trace's content holds: the client's request body and the answer it got (null when not read whole). */
export interface TraceContent {
  request: unknown;
  response: unknown;
}

type Row = Record<(typeof columns)[number], unknown>;

export interface TraceWriterOptions {
  batchSize?: number;
  flushIntervalMs?: number;
  /** Traces held in memory while the store is slow; past it new traces are dropped (and counted). */
  maxBuffered?: number;
  onDropped?: (count: number) => void;
  /** Seals content (`GW_CONTENT_KEY`); without it no content is written. */
  keyring?: Keyring | null;
  /** Characters of content held in memory at once (default 32 Mi); past it new traces are written without theirs. */
  maxBufferedContentChars?: number;
}

/**
 * Writes one trace per metered call to `gw_traces` off the request path, in batches (every 200 ms or 200 traces),
 * with the call's content sealed when the metering stage passes it (content mode `full` and `GW_CONTENT_KEY` set).
 * A trace is observability, not the ledger: the spend row is what must never be lost (`../spend-writer.ts`), so a
 * batch the store refuses is dropped and counted rather than retried, and a call never waits on this.
 */
export class TraceWriter {
  private buffer: Array<{ row: Row; content: string | null }> = [];
  private bufferedContentChars = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly options: TraceWriterOptions = {},
  ) {}

  /**
   * Queues the call's trace. `content` is kept only with a key and within the in-memory bound; it is serialised here,
   * after the call's answer went out, and sealed at the flush.
   */
  write(record: SpendRecord, content: TraceContent | null = null): void {
    if (this.stopped) return;
    if (this.buffer.length >= (this.options.maxBuffered ?? 20_000)) {
      this.options.onDropped?.(1);
      return;
    }
    const text = content && this.options.keyring ? JSON.stringify(content) : null;
    const kept =
      text !== null &&
      this.bufferedContentChars + text.length <= (this.options.maxBufferedContentChars ?? 32 * 1024 * 1024)
        ? text
        : null;
    if (kept) this.bufferedContentChars += kept.length;
    this.buffer.push({ row: traceOf(record), content: kept });
    if (this.buffer.length >= (this.options.batchSize ?? 200)) void this.flush();
    else this.schedule();
  }

  /** Writes everything buffered now (tests, shutdown). */
  async drain(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.buffer.length > 0 || this.flushing) await this.flush();
  }

  async stop(): Promise<void> {
    await this.drain();
    this.stopped = true;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.options.flushIntervalMs ?? 200);
    this.timer.unref();
  }

  private flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    const batch = this.buffer.splice(0, this.options.batchSize ?? 200);
    if (batch.length === 0) return;
    const rows = batch.map(({ row, content }) =>
      content ? { ...row, content_sealed: this.seal(String(row.id), content) } : row,
    );
    this.bufferedContentChars -= batch.reduce((total, entry) => total + (entry.content?.length ?? 0), 0);
    try {
      await this.db.query(insertSql, [JSON.stringify(rows)]);
    } catch (error) {
      this.options.onDropped?.(batch.length);
      this.logger.warn({ err: error, dropped: batch.length }, 'trace write failed; batch dropped');
    }
  }

  /** AES-256-GCM under `GW_CONTENT_KEY`, bound to the trace's id (what the content read checks). */
  private seal(id: string, content: string): string | null {
    return this.options.keyring ? this.options.keyring.encrypt(content, `trace:${id}`) : null;
  }
}
