import { Counter, Gauge, type Registry } from 'prom-client';
import type { SpendWriterHooks } from './spend-writer.js';

/** The spend writer's health. */
export class SpendQueueMetrics {
  readonly depth: Gauge;
  readonly writeFailures: Counter;
  readonly spilled: Counter;
  readonly replayed: Counter;
  readonly dropped: Counter;
  readonly rejected: Counter;

  constructor(registry: Registry) {
    this.depth = new Gauge({
      name: 'gw_spend_queue_depth',
      help: 'Spend records buffered in memory, waiting to be written to gw_spend.',
      registers: [registry],
    });
    this.writeFailures = new Counter({
      name: 'gw_spend_write_failures_total',
      help: 'Failed spend batch writes (each is retried with backoff).',
      registers: [registry],
    });
    this.spilled = new Counter({
      name: 'gw_spend_spilled_total',
      help: 'Spend records written to the on-disk journal because a write failed, the buffer was full or the process stopped with the store down.',
      registers: [registry],
    });
    this.replayed = new Counter({
      name: 'gw_spend_replayed_total',
      help: 'Spend records replayed from the spill file into gw_spend.',
      registers: [registry],
    });
    this.rejected = new Counter({
      name: 'gw_spend_rejected_total',
      help: 'Spend records the store refused for their data, set aside in the spill folder (rejected-*.ndjson) instead of blocking later records.',
      registers: [registry],
    });
    this.dropped = new Counter({
      name: 'gw_spend_dropped_total',
      help: 'Spend records lost: the buffer was full and the spill file could not be written.',
      registers: [registry],
    });
  }

  /** The hooks `SpendWriter` reports through. */
  hooks(): SpendWriterHooks {
    return {
      onDepth: (depth) => this.depth.set(depth),
      onWriteFailure: () => this.writeFailures.inc(),
      onSpilled: (count) => this.spilled.inc(count),
      onReplayed: (count) => this.replayed.inc(count),
      onDropped: (count) => this.dropped.inc(count),
      onRejected: (count) => this.rejected.inc(count),
    };
  }
}
