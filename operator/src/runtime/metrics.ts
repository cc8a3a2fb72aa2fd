import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Operator metrics: reconcile counts, durations, errors, queue depth, leadership. */
export class OperatorMetrics {
  readonly registry = new Registry();
  readonly reconciles = new Counter({
    name: 'gw_operator_reconcile_total',
    help: 'Reconciles by kind and result',
    labelNames: ['kind', 'result'],
    registers: [this.registry],
  });
  readonly errors = new Counter({
    name: 'gw_operator_reconcile_errors_total',
    help: 'Failed reconciles by kind',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'gw_operator_reconcile_duration_seconds',
    help: 'Reconcile duration by kind',
    labelNames: ['kind'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: 'gw_operator_queue_depth',
    help: 'Keys waiting in the work queue by kind',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  readonly watchRestarts = new Gauge({
    name: 'gw_operator_watch_restarts',
    help: 'Watch restarts after errors by kind',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  readonly leader = new Gauge({
    name: 'gw_operator_leader',
    help: '1 while this replica holds the leader Lease',
    registers: [this.registry],
  });
}
