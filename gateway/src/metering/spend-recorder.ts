import type { Logger } from '@gw/platform';
import type { SpendRecord } from './spend-record.js';
import type { SpendWriter } from './spend-writer.js';

/**
 * A bounded in-memory ring: the live view behind `/admin/spend`. A true ring (overwrite the oldest slot) rather than
 * push + shift: once full, `shift` moves every element on each call, which on the per-request path cost more than
 * the rest of recording.
 */
export class SpendRing {
  private readonly records: SpendRecord[] = [];
  private next = 0;
  constructor(private readonly capacity = 5_000) {}
  push(record: SpendRecord): void {
    if (this.records.length < this.capacity) this.records.push(record);
    else this.records[this.next] = record;
    this.next = (this.next + 1) % this.capacity;
  }
  /** Oldest first. */
  snapshot(): readonly SpendRecord[] {
    if (this.records.length < this.capacity) return this.records;
    return [...this.records.slice(this.next), ...this.records.slice(0, this.next)];
  }
}

export type SpendListener = (record: SpendRecord) => void;

/** Stage 6 (metering): exactly one record per call, fanned out to the ring, the store writer and listeners. */
export class SpendRecorder {
  private readonly listeners: SpendListener[] = [];
  constructor(
    readonly ring: SpendRing,
    private readonly writer: SpendWriter,
    private readonly logger: Logger,
  ) {}

  /** Counters, metrics and alerts subscribe here; a failing listener never loses the record. Returns the unsubscribe. */
  onRecord(listener: SpendListener): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  /** `traced`: the record is a call's, and the call's trace is written with it (a batch line's row has none). */
  record(record: SpendRecord, options: { traced?: boolean } = {}): void {
    this.ring.push(record);
    this.writer.enqueue(record, options.traced === true);
    for (const listener of this.listeners) {
      try {
        listener(record);
      } catch (error) {
        this.logger.warn({ err: error }, 'spend listener failed');
      }
    }
  }
}
