import type { Logger } from '@gw/platform';
import type { SpendRecord } from './spend-record.js';
import type { SpendWriter } from './spend-writer.js';

/** A bounded in-memory ring: the live view behind `/admin/spend`. */
export class SpendRing {
  private readonly records: SpendRecord[] = [];
  constructor(private readonly capacity = 5_000) {}
  push(record: SpendRecord): void {
    this.records.push(record);
    if (this.records.length > this.capacity) this.records.shift();
  }
  snapshot(): readonly SpendRecord[] {
    return this.records;
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

  /** Counters, metrics and alerts subscribe here; a failing listener never loses the record. */
  onRecord(listener: SpendListener): void {
    this.listeners.push(listener);
  }

  record(record: SpendRecord): void {
    this.ring.push(record);
    this.writer.enqueue(record);
    for (const listener of this.listeners) {
      try {
        listener(record);
      } catch (error) {
        this.logger.warn({ err: error }, 'spend listener failed');
      }
    }
  }
}
