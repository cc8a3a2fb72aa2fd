import type { Clock, Coord, Logger, SlotLease } from '@gw/platform';
import type { AuthRejectionInput } from '../admin/audit/audit.store.js';
import type { GovernanceMetrics } from '../metering/governance-metrics.js';
import type { SpendRecord } from '../metering/spend-record.js';
import { PendingWork } from '../shared/pending-work.js';
import type { ModelFacts } from '../providers/pricing/known-models.js';
import type { CapAlerts } from './cap-alerts.js';
import type { EffectiveLimits } from './limits.schema.js';
import type { LimitsStore } from './limits.store.js';
import { capUsages } from './cap-views.js';
import type { Period } from './period.js';
import { meterBatch, type MeterBatchDeps } from './meter-batch.js';
import type { CounterReconciler } from './reconcile-counters.js';
import type { Reservation, Reservations } from './reservations.js';
import type { UserCap, UserCapStore } from './user-caps.store.js';
import type { Subject, UsageCounters, UsageTotals } from './usage-counters.js';

/** Where 402 cap rejections go for `/admin/auth-events` (the audit store's writer). */
export interface AuthRejectionSink {
  recordAuthRejection(input: AuthRejectionInput): Promise<void>;
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
  /** `GW_STRICT_DEFAULT_OUTPUT_TOKENS`: the output a strict reservation assumes when neither request nor model says. */
  defaultOutputTokens?: number;
}

// A request that never produces a spend record (a 400 before the handler) gives its reservation back after this.
const orphanReservationMs = 5_000;

/**
 * Caps, budgets, limits and usage counters. The admission stage reads through it; the
 * metering listener (`meter`) adds the records of each event-loop turn to the counters together, sends cap alerts,
 * and settles strict reservations only after the actual cost is counted, so a concurrent strict check never sees
 * neither.
 */
export class Governance {
  private readonly held = new Map<string, Reservation[]>();
  /** Batches being metered (`idle()` waits for them). */
  private readonly metering = new PendingWork();
  private readonly releasing = new PendingWork();
  private readonly keyBudgets = new Map<string, number>();
  private readonly lastFailOpenLog = new Map<string, number>();
  /** Records waiting for the end of this event-loop turn, metered together (`meter-batch.ts`). */
  private pending: SpendRecord[] = [];
  private readonly batchDeps: MeterBatchDeps;

  /** The stores its admin operations write (caps, limits, the counter reconciler). */
  readonly stores: Pick<GovernanceDeps, 'caps' | 'limits' | 'reconciler'>;

  constructor(private readonly deps: GovernanceDeps) {
    this.stores = { caps: deps.caps, limits: deps.limits, reconciler: deps.reconciler };
    this.batchDeps = {
      counters: deps.counters,
      alerts: deps.alerts,
      caps: deps.caps,
      keyBudget: (keyId) => this.keyBudgets.get(keyId),
      setBudgetRemaining: (keyId, remainingUsd) => deps.metrics.setBudgetRemaining(keyId, remainingUsd),
    };
  }

  /** The `SpendRecorder.onRecord` listener: never throws, never blocks the request. */
  readonly listener = (record: SpendRecord): void => {
    this.pending.push(record);
    if (this.pending.length === 1) setImmediate(this.meterPending);
  };

  /** The end of the turn that queued records: meter them as one batch. */
  private readonly meterPending = (): void => {
    void this.metering.track(this.meter(this.takePending()));
  };

  private takePending(): SpendRecord[] {
    const batch = this.pending;
    this.pending = [];
    return batch;
  }

  /** Resolves once every record seen so far is counted and every slot given back so far is free (tests, shutdown). */
  async idle(): Promise<void> {
    do {
      // Records queued this turn are metered by an immediate already scheduled, which runs before this one.
      if (this.pending.length > 0) await new Promise((resolve) => setImmediate(resolve));
      await this.metering.settled();
    } while (this.pending.length > 0);
    await this.releasing.settled();
  }

  /** Give a concurrency slot back after the response ended; `idle()` waits for it. Never throws. */
  releaseSlot(slot: SlotLease): void {
    void this.releasing.track(slot.release()).catch(() => undefined);
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
   * A check skipped because Coord is down: counted always, logged at most every 10 s per check (The
   * budget fails open, and says so in metrics and logs).
   */
  reportFailOpen(check: string, error: unknown): void {
    this.deps.metrics.failOpen.inc({ check });
    const now = this.deps.clock.now();
    if (now - (this.lastFailOpenLog.get(check) ?? Number.NEGATIVE_INFINITY) < 10_000) return;
    this.lastFailOpenLog.set(check, now);
    this.deps.logger.warn({ err: error, check }, 'admission check failed open: Coord unreachable, request let through');
  }

  /** A developer's cap, from the in-memory copy (no round trip). */
  capOf(user: string): UserCap | undefined {
    return this.deps.caps.get(user);
  }

  /** The limits that apply to a key and its user (key overrides user overrides deployment). */
  effectiveLimits(keyId: string, user: string | null): EffectiveLimits {
    return this.deps.limits.effective(keyId, user);
  }

  /** Model facts after alias resolution, with the deployment's pricing overrides (strict estimates). */
  modelFacts(model: string): ModelFacts | undefined {
    return this.deps.modelFacts(model);
  }

  /** The output a strict reservation assumes when neither request nor model says. */
  get defaultOutputTokens(): number | undefined {
    return this.deps.defaultOutputTokens;
  }

  /** Month-to-date totals of a user or service key, from the live counters (throws when Coord is down). */
  usageTotals(subject: Subject, period: Period): Promise<UsageTotals> {
    return this.deps.counters.read(subject, period);
  }

  /** The caps' usage this period, from the live counters; null when Coord is down. */
  capUsages(caps: readonly UserCap[], now: number): ReturnType<typeof capUsages> {
    return capUsages(this.deps.coord, caps, now);
  }

  /** A strict reservation against a subject's counters, given back when the call's spend record is counted. */
  reserve(subject: Subject, amounts: { tokens: number; costMicros: number }, now: number): Promise<Reservation> {
    return this.deps.reservations.reserve(subject, amounts, now);
  }

  setBudgetRemaining(keyId: string, remainingUsd: number): void {
    this.deps.metrics.setBudgetRemaining(keyId, remainingUsd);
  }

  /** A 402 for `/admin/auth-events`. */
  recordAuthRejection(input: AuthRejectionInput): Promise<void> {
    return this.deps.authEvents.recordAuthRejection(input);
  }

  /** Admission learns budgets from the key record; the gauge needs them when the record is metered. */
  rememberBudget(keyId: string, monthlyBudgetUsd: number | null): void {
    if (monthlyBudgetUsd && monthlyBudgetUsd > 0) {
      if (this.keyBudgets.size > 10_000) this.keyBudgets.clear();
      this.keyBudgets.set(keyId, monthlyBudgetUsd);
    }
  }

  /**
   * Counts a batch, then settles the strict reservations of its records: a reservation is given back only once the
   * actual cost it stood for is counted, so a concurrent strict check never sees neither.
   */
  private async meter(records: readonly SpendRecord[]): Promise<void> {
    try {
      const outcome = await meterBatch(this.batchDeps, records, this.deps.clock.now());
      if (outcome.failedRecords > 0) this.reportCounterFailure(outcome.failedRecords, outcome.firstError);
    } catch (error) {
      this.reportCounterFailure(records.length, error);
    } finally {
      // Only strict calls hold reservations; most batches have none to give back.
      if (this.held.size > 0) await Promise.all(records.map((record) => this.settle(record.traceId)));
    }
  }

  private reportCounterFailure(records: number, error: unknown): void {
    this.deps.metrics.counterFailures.inc(records);
    this.deps.logger.warn({ err: error, records }, 'usage counters not updated; reconciliation will restore them');
  }
}
