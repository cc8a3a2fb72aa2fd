import { isDataRejection, type Db, type Keyring, type Logger } from '@gw/platform';
import type { SpendRecord } from '../spend-record.js';
import { rowOf } from '../spend-writer.js';
import { insertTracesWithContentSql } from './trace-row.js';

/** What a trace's content holds: the client's request body and the answer it got (null when not read whole). */
export interface TraceContent {
  request: unknown;
  response: unknown;
}

export interface TraceWriterOptions {
  batchSize?: number;
  flushIntervalMs?: number;
  /** Traces with content held in memory while the store is slow; past it new content is dropped (and counted). */
  maxBuffered?: number;
  onDropped?: (count: number) => void;
  /** Seals content (`GW_CONTENT_KEY`); without it no content is written. */
  keyring?: Keyring | null;
  /** Characters of content held in memory at once (default 32 Mi); past it new content is dropped (and counted). */
  maxBufferedContentChars?: number;
}

/**
 * Writes the content of a call's trace, sealed, off the request path in batches (every 200 ms or 200 traces), when the
 * metering stage passes it (content mode `full` and `GW_CONTENT_KEY` set). The trace itself, content-free, is written
 * with the call's spend row by the spend writer (`../spend-writer.ts`); this writer writes the same trace with its
 * content, so whichever comes first, the trace ends with both (`./trace-row.ts`). Content is observability, not the
 * ledger: a batch the store refuses is dropped and counted rather than retried, and a call never waits on this.
 */
export class TraceWriter {
  private buffer: Array<{ record: SpendRecord; content: string }> = [];
  private bufferedContentChars = 0;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly options: TraceWriterOptions = {},
  ) {}

  /** Whether content passed to `write` is kept at all: only with a key to seal it. */
  get sealsContent(): boolean {
    return this.options.keyring !== null && this.options.keyring !== undefined;
  }

  /**
   * Queues the call's content for its trace. It is serialised here, after the call's answer went out, and sealed at
   * the flush; kept only with a key and within the in-memory bounds.
   */
  write(record: SpendRecord, content: TraceContent): void {
    if (this.stopped || !this.sealsContent) return;
    const text = JSON.stringify(content);
    if (
      this.buffer.length >= (this.options.maxBuffered ?? 20_000) ||
      this.bufferedContentChars + text.length > (this.options.maxBufferedContentChars ?? 32 * 1024 * 1024)
    ) {
      this.options.onDropped?.(1);
      return;
    }
    this.bufferedContentChars += text.length;
    this.buffer.push({ record, content: text });
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
    this.bufferedContentChars -= batch.reduce((total, entry) => total + entry.content.length, 0);
    try {
      await this.insert(batch);
    } catch (error) {
      if (!isDataRejection(error)) return this.dropped(batch.length, error);
      // One record the store refuses for its data must not take the others' content with it.
      for (const entry of batch) await this.insert([entry]).catch((alone: unknown) => this.dropped(1, alone));
    }
  }

  private async insert(entries: ReadonlyArray<{ record: SpendRecord; content: string }>): Promise<void> {
    await this.db.query(insertTracesWithContentSql, [
      JSON.stringify(entries.map(({ record }) => rowOf(record))),
      entries.map(({ record }) => record.id),
      entries.map(({ record, content }) => this.seal(record.id, content)),
    ]);
  }

  private dropped(count: number, error: unknown): void {
    this.options.onDropped?.(count);
    this.logger.warn({ err: error, dropped: count }, 'trace content write failed; dropped');
  }

  /** AES-256-GCM under `GW_CONTENT_KEY`, bound to the trace's id (what the content read checks). */
  private seal(id: string, content: string): string | null {
    return this.options.keyring ? this.options.keyring.encrypt(content, `trace:${id}`) : null;
  }
}
