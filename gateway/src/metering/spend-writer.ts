import type { Db, Logger } from '@gw/platform';
import type { SpendRecord } from './spend-record.js';

export interface SpendWriterOptions {
  batchSize?: number;
  flushIntervalMs?: number;
  /** Records held while the store is unreachable; past it the oldest unsaved records are reported and dropped. */
  maxBuffered?: number;
  onDepth?: (depth: number) => void;
  onWriteFailure?: () => void;
  onDropped?: (count: number) => void;
}

const columns = [
  'id', 'ts', 'endpoint', 'method', 'status', 'outcome', 'provider', 'model', 'reasoning_effort', 'prompt_tokens', 'completion_tokens', 'total_tokens',
  'cache_read_tokens', 'cache_write_tokens', 'reasoning_tokens', 'latency_ms', 'upstream_latency_ms', 'cost_usd', 'savings_usd', 'tokens_saved', 'billing_mode',
  'user_id', 'team', 'key_id', 'key_type', 'stream', 'optimization_status', 'optimization_reason', 'optimizer_latency_ms', 'attempts', 'target', 'error_code',
  'trace_id', 'attribution',
] as const;

function rowValues(record: SpendRecord): unknown[] {
  return [
    record.id, record.ts, record.endpoint, record.method, record.status, record.outcome, record.provider, record.model, record.reasoningEffort,
    record.promptTokens, record.completionTokens, record.totalTokens, record.cacheReadTokens, record.cacheWriteTokens, record.reasoningTokens,
    record.latencyMs, record.upstreamLatencyMs, record.costUsd, record.savingsUsd, record.tokensSaved, record.billingMode, record.user, record.team,
    record.keyId, record.keyType, record.stream, record.optimizationStatus, record.optimizationReason, record.optimizerLatencyMs, record.attempts,
    record.target, record.errorCode, record.traceId, JSON.stringify(record.attribution),
  ];
}

/**
 * Writes spend records to `gw_spend` off the request path in batched multi-row inserts. A failed batch stays at the
 * head of the buffer and is retried with backoff, so a Postgres outage or restart loses nothing while the buffer
 * has room; ids make retries idempotent (`ON CONFLICT DO NOTHING`).
 */
export class SpendWriter {
  private buffer: SpendRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private backoffMs = 0;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly options: SpendWriterOptions = {},
  ) {}

  get depth(): number {
    return this.buffer.length;
  }

  enqueue(record: SpendRecord): void {
    this.buffer.push(record);
    const max = this.options.maxBuffered ?? 100_000;
    if (this.buffer.length > max) {
      const dropped = this.buffer.splice(0, this.buffer.length - max);
      this.options.onDropped?.(dropped.length);
      this.logger.error({ dropped: dropped.length }, 'spend buffer full: oldest unsaved records dropped');
    }
    this.options.onDepth?.(this.buffer.length);
    if (this.buffer.length >= (this.options.batchSize ?? 200)) this.schedule(0);
    else this.schedule(this.options.flushIntervalMs ?? 200);
  }

  private schedule(delayMs: number): void {
    if (this.stopped || this.timer || this.flushing) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushing = this.flushOnce().finally(() => {
        this.flushing = null;
        if (this.buffer.length > 0) this.schedule(this.backoffMs || (this.options.flushIntervalMs ?? 200));
      });
    }, Math.max(delayMs, this.backoffMs));
    this.timer.unref();
  }

  private async flushOnce(): Promise<void> {
    const batch = this.buffer.slice(0, this.options.batchSize ?? 200);
    if (batch.length === 0) return;
    const placeholders = batch.map((_, row) => `(${columns.map((__, column) => `$${row * columns.length + column + 1}`).join(', ')})`).join(', ');
    try {
      await this.db.query(`INSERT INTO gw_spend (${columns.join(', ')}) VALUES ${placeholders} ON CONFLICT (id) DO NOTHING`, batch.flatMap(rowValues));
      this.buffer.splice(0, batch.length);
      this.backoffMs = 0;
      this.options.onDepth?.(this.buffer.length);
    } catch (error) {
      this.options.onWriteFailure?.();
      this.backoffMs = Math.min(Math.max(this.backoffMs * 2, 250), 10_000);
      this.logger.warn({ err: error, buffered: this.buffer.length, retryInMs: this.backoffMs }, 'spend write failed; will retry');
    }
  }

  /** Write everything buffered (shutdown, tests). Gives up after `timeoutMs` and reports what stayed unsaved. */
  async drain(timeoutMs = 10_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.buffer.length > 0 && Date.now() < deadline) {
      if (this.flushing) await this.flushing;
      else await this.flushOnce();
      if (this.buffer.length > 0 && this.backoffMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(this.backoffMs, Math.max(deadline - Date.now(), 0))));
    }
    return this.buffer.length;
  }

  async stop(): Promise<void> {
    const unsaved = await this.drain();
    this.stopped = true;
    if (unsaved > 0) this.logger.error({ unsaved }, 'spend records unsaved at shutdown');
  }
}
