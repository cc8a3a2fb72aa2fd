import type { Clock, Coord, Logger } from '@gw/platform';
import type { GovernanceMetrics } from '../metering/governance-metrics.js';
import type { SpendRecord } from '../metering/spend-record.js';
import type { ModelFacts } from '../pricing/known-models.js';
import type { CapAlerts } from './cap-alerts.js';
import type { LimitsStore } from './limits.store.js';
import { fromMicros } from './money.js';
import { monthPeriod, periodOf } from './period.js';
import type { CounterReconciler } from './reconcile-counters.js';
import type { Reservation, Reservations } from './reservations.js';
import type { UserCapStore } from './user-caps.store.js';
import { contributionOf, subjectsOf, type UsageCounters } from './usage-counters.js';

/** Where 402 cap rejections go for `/admin/auth-events` (the audit store's writer). */
export interface AuthRejectionSink {
  recordAuthRejection(input: { code: string; user?: string | null; keyId?: string | null; endpoint?: string | null; status: number; hint?: string | null; requestId?: string | null }): Promise<void>;
}

export interface GovernanceDeps {
  coord: Coord;
  clock: Clock;
  logger: Logger;
  caps: UserCapStore;
  limits: LimitsStore;
  counters: UsageCounters;
  reservations: Reservations;
  alerts: CapAlerts;
  reconciler: CounterReconciler;
  metrics: GovernanceMetrics;
  authEvents: AuthRejectionSink;
  /** Model facts after alias resolution, with the deployment's pricing overrides (strict estimates). */
  modelFacts(model: string): ModelFacts | undefined;
}

// A request that never produces a spend record (a 400 before the handler) gives its reservation back after this.
const orphanReservationMs = 5_000;

/**
 * Caps, budgets, limits and usage counters (spec 000 §1.5, §2, §3). The admission stage reads through it; the
 * metering listener (`meter`) adds each record to the counters, sends cap alerts, and settles strict reservations
 * only after the actual cost is counted, so a concurrent strict check never sees neither.
 */
export class Governance {
  private readonly held = new Map<string, Reservation[]>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly keyBudgets = new Map<string, number>();
  private readonly lastFailOpenLog = new Map<string, number>();

  constructor(readonly deps: GovernanceDeps) {}

  /** The `SpendRecorder.onRecord` listener: never throws, never blocks the request. */
  readonly listener = (record: SpendRecord): void => {
    const work = this.meter(record).finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  };

  /** Resolves once every record seen so far is counted (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Strict reservations of a request, settled by its spend record. */
  hold(traceId: string, reservations: Reservation[]): void {
    if (reservations.length > 0) this.held.set(traceId, reservations);
  }

  /** The response ended: if no spend record settles the reservations soon, give them back anyway. */
  releaseLater(traceId: string): void {
    if (!this.held.has(traceId)) return;
    setTimeout(() => void this.settle(traceId), orphanReservationMs).unref();
  }

  async settle(traceId: string | null): Promise<void> {
    if (!traceId) return;
    const reservations = this.held.get(traceId);
    if (!reservations) return;
    this.held.delete(traceId);
    await Promise.all(reservations.map((reservation) => reservation.release()));
  }

  /**
   * A check skipped because Coord is down: counted always, logged at most every 10 s per check (spec 000 §2: the
   * budget fails open, and says so in metrics and logs).
   */
  reportFailOpen(check: string, error: unknown): void {
    this.deps.metrics.failOpen.inc({ check });
    const now = this.deps.clock.now();
    if (now - (this.lastFailOpenLog.get(check) ?? Number.NEGATIVE_INFINITY) < 10_000) return;
    this.lastFailOpenLog.set(check, now);
    this.deps.logger.warn({ err: error, check }, 'admission check failed open: Coord unreachable, request let through');
  }

  /** Admission learns budgets from the key record; the gauge needs them when the record is metered. */
  rememberBudget(keyId: string, monthlyBudgetUsd: number | null): void {
    if (monthlyBudgetUsd && monthlyBudgetUsd > 0) {
      if (this.keyBudgets.size > 10_000) this.keyBudgets.clear();
      this.keyBudgets.set(keyId, monthlyBudgetUsd);
    }
  }

  private async meter(record: SpendRecord): Promise<void> {
    try {
      await this.count(record);
    } catch (error) {
      this.deps.metrics.counterFailures.inc();
      this.deps.logger.warn({ err: error, traceId: record.traceId }, 'usage counters not updated; reconciliation will restore them');
    } finally {
      await this.settle(record.traceId);
    }
  }

  private async count(record: SpendRecord): Promise<void> {
    const contribution = contributionOf(record);
    if (!contribution) return;
    const now = this.deps.clock.now();
    const at = Date.parse(record.ts) || now;
    for (const subject of subjectsOf(record)) {
      const month = monthPeriod(at);
      const totals = await this.deps.counters.add(subject, month, contribution, now);
      if (subject.kind === 'key') {
        const budget = this.keyBudgets.get(subject.id);
        if (budget !== undefined && totals.costMicros !== undefined) this.deps.metrics.setBudgetRemaining(subject.id, budget - fromMicros(totals.costMicros));
        continue;
      }
      const cap = this.deps.caps.get(subject.id);
      if (!cap) continue;
      const period = periodOf(cap.reset, at);
      const capTotals = cap.reset === 'monthly' ? totals : await this.deps.counters.add(subject, period, { tokens: contribution.tokens, costMicros: contribution.costMicros }, now);
      await this.deps.alerts.evaluate(cap, period, { tokens: capTotals.tokens ?? 0, costMicros: capTotals.costMicros ?? 0 });
    }
  }
}
