import type { Registry } from 'prom-client';
import { LabeledCounter } from '../metering/metrics/labeled-metrics.js';

/** Every upstream try is visible in metrics: retries and fallbacks included, by provider and result. */
export class AttemptMetrics {
  private readonly attempts: LabeledCounter<'provider' | 'result'>;

  constructor(registry: Registry) {
    this.attempts = new LabeledCounter(registry, {
      name: 'gw_upstream_attempts_total',
      help: 'Upstream tries by provider and result (HTTP status class, or network).',
      labelNames: ['provider', 'result'],
    });
  }

  record(provider: string, status: number | null): void {
    this.attempts.inc({ provider, result: status === null ? 'network' : `${Math.floor(status / 100)}xx` });
  }
}
