import { Counter, type Registry } from 'prom-client';

export type RetrievalSurface = 'mcp' | 'connect';
export type RetrievalOperation = 'retrieve' | 'recall';

/**
 * Retrieval counters: outcome per surface and operation, and the age bucket of each hit (* recorded by the gateway, never returned to the developer's client). Labels are closed sets.
 */
export class RetrievalMetrics {
  readonly calls: Counter<'surface' | 'operation' | 'outcome'>;
  readonly ageBuckets: Counter<'bucket'>;

  constructor(registry: Registry) {
    // One registry may back several app instances (replica tests): reuse a counter that already exists.
    this.calls =
      existing(registry, 'gw_retrieval_calls_total') ??
      new Counter({
        name: 'gw_retrieval_calls_total',
        help: 'Retrieval tool calls (gw_retrieve, gw_recall) by surface, operation and outcome.',
        labelNames: ['surface', 'operation', 'outcome'],
        registers: [registry],
      });
    this.ageBuckets =
      existing(registry, 'gw_retrieval_age_bucket_total') ??
      new Counter({
        name: 'gw_retrieval_age_bucket_total',
        help: 'Age of stashed originals at retrieval, by age bucket.',
        labelNames: ['bucket'],
        registers: [registry],
      });
  }
}

function existing<T extends string>(registry: Registry, name: string): Counter<T> | undefined {
  return registry.getSingleMetric(name) as Counter<T> | undefined;
}
