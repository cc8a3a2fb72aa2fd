import { Counter, type Registry } from 'prom-client';

/** Every upstream try is visible in metrics (issue 4): retries and fallbacks included, by provider and result. */
export class AttemptMetrics {
  private readonly attempts: Counter<'provider' | 'result'>;

  constructor(registry: Registry) {
    this.attempts = new Counter({ name: 'gw_upstream_attempts_total', help: 'Upstream tries by provider and result (HTTP status class, or network).', labelNames: ['provider', 'result'], registers: [registry] });
  }

  record(provider: string, status: number | null): void {
    this.attempts.inc({ provider, result: status === null ? 'network' : `${Math.floor(status / 100)}xx` });
  }
}
