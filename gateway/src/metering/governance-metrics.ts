import { Counter, Gauge, type Registry } from 'prom-client';

// Service keys are few and admin-minted, but a bound keeps a misconfigured fleet from exploding the series count.
const maxBudgetSeries = 500;

/** Admission, counters and cap alerts. No user ids as labels. */
export class GovernanceMetrics {
  readonly failOpen: Counter<'check'>;
  readonly budgetRemaining: Gauge<'key_id'>;
  readonly capAlerts: Counter<'kind' | 'outcome'>;
  readonly counterCorrections: Counter;
  readonly counterFailures: Counter;
  private readonly budgetSeries = new Set<string>();

  constructor(registry: Registry) {
    this.failOpen = new Counter({
      name: 'gw_admission_fail_open_total',
      help: 'Admission checks skipped because Coord (Redis) was unreachable; the request was let through.',
      labelNames: ['check'],
      registers: [registry],
    });
    this.budgetRemaining = new Gauge({
      name: 'gw_budget_remaining_usd',
      help: 'Month-to-date budget left per service key with a monthlyBudgetUsd (negative when overshot); at most 500 keys.',
      labelNames: ['key_id'],
      registers: [registry],
    });
    this.capAlerts = new Counter({
      name: 'gw_cap_alerts_total',
      help: 'Cap-approach alerts by kind (tokens, usd, soft) and delivery outcome.',
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    });
    this.counterCorrections = new Counter({
      name: 'gw_usage_counter_corrections_total',
      help: 'Usage counters raised to the gw_spend sums by reconciliation (lost increments).',
      registers: [registry],
    });
    this.counterFailures = new Counter({
      name: 'gw_usage_counter_failures_total',
      help: 'Spend records whose usage counters could not be updated (Coord unreachable); reconciliation restores them.',
      registers: [registry],
    });
  }

  setBudgetRemaining(keyId: string, remainingUsd: number): void {
    if (!this.budgetSeries.has(keyId)) {
      if (this.budgetSeries.size >= maxBudgetSeries) return;
      this.budgetSeries.add(keyId);
    }
    this.budgetRemaining.set({ key_id: keyId }, Math.round(remainingUsd * 1_000_000) / 1_000_000);
  }
}
