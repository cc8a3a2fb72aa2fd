import { randomUUID } from 'node:crypto';
import type { FleetRollup, HeartbeatTier, MeterReport } from '@gw/contracts';
import type { Clock, Coord, LeaseTrustStore, Logger, Queryable } from '@gw/platform';
import { BillingCallFailed, type BillingClient } from './billing-client.js';
import type { EntitlementGate } from './entitlement-gate.js';
import { holdLease } from './lease-holder.js';
import type { LeaseRefresher } from './lease-refresher.js';
import type { MeteringReportStore } from './metering-reports.store.js';
import { usageRollup } from './usage-rollup.js';
import { Rounds } from '../shared/rounds.js';

/**
 * `pending`: no round finished since start; `ok`: this replica's last report was accepted; `failing`: it was not;
 * `standby`: another replica holds the reporting claim (this one reads the lease it stores).
 */
export const meteringStates = ['not-metered', 'pending', 'ok', 'failing', 'standby'] as const;
export type MeteringState = (typeof meteringStates)[number];

export interface MeteringLaneOptions {
  db: Queryable;
  coord: Coord;
  clock: Clock;
  logger: Logger;
  billing: BillingClient;
  reports: MeteringReportStore;
  gate: EntitlementGate;
  trust: LeaseTrustStore;
  leaseTrust: MeterReport['leaseTrust'];
  deploymentId: string;
  gatewayVersion: string;
  heartbeatTier: () => Promise<HeartbeatTier>;
  /** The endpoint evidence rollup, or null when no evidence service is configured. */
  fleet: () => Promise<FleetRollup | null>;
  intervalMs: number;
  /** Rows younger than this are left to the next window: a batch insert may still be committing. */
  settleMs: number;
  /** Asks billing for a lease without usage when reports keep failing and the held lease nears its end. */
  refresher?: LeaseRefresher;
}

const firstRetryMs = 30_000;

/**
 * The metering lane: every interval one replica (a Coord claim) reports the usage
 * since the last accepted report and stores the signed lease billing answers with, which every replica's gate then
 * reads. Delivery is at least once and counted once: a window is reported with a fixed id, and a report that got no
 * answer (billing down, a crash mid-call) is resent byte for byte until billing accepts it; only then does the next
 * window start. A failure keeps the last lease: the gate closes only when that lease runs out.
 */
export class MeteringLane {
  private failures = 0;
  // One interval after a success, sooner after failures (30 s, doubling up to the interval).
  private readonly rounds = new Rounds(
    () => this.round(),
    () =>
      this.failures === 0
        ? this.options.intervalMs
        : Math.min(firstRetryMs * 2 ** (this.failures - 1), this.options.intervalMs),
  );
  private readonly replicaId = randomUUID();
  state: MeteringState = 'pending';
  lastError: { code: string; httpStatus: number | null; at: string } | null = null;

  constructor(private readonly options: MeteringLaneOptions) {}

  /** The first round starts at once (readiness waits on a lease); `firstRound` settles when it is done. */
  start(): void {
    this.firstRound = this.rounds.runOnce().then(() => this.rounds.schedule());
  }

  firstRound: Promise<void> = Promise.resolve();

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** One reporting round (also what the timer runs); resolves when it is done, whatever happened. */
  runOnce(): Promise<void> {
    return this.rounds.runOnce();
  }

  private async round(): Promise<void> {
    try {
      if (!(await this.claim())) {
        this.state = 'standby';
        return;
      }
      const report = await this.nextReport();
      await this.send(report);
    } catch (error) {
      this.fail(
        error instanceof BillingCallFailed
          ? error
          : new BillingCallFailed('metering_store_error', null, 'the metering lane could not read or write its store'),
      );
      if (!(error instanceof BillingCallFailed))
        this.options.logger.warn({ err: error }, 'metering round failed in the store');
    }
  }

  /** One replica reports per interval; the claim outlives the round so the others do not send a sliver right after. */
  private async claim(): Promise<boolean> {
    const key = `metering:${this.options.deploymentId}`;
    const ttl = Math.max(Math.floor(this.options.intervalMs * 0.9), 1_000);
    if (await this.options.coord.setIfAbsent(key, this.replicaId, ttl)) return true;
    return (await this.options.coord.getValue(key)) === this.replicaId;
  }

  private async nextReport(): Promise<MeterReport> {
    const { start, end } = await this.options.reports.nextWindow(this.options.settleMs);
    const unsettled = await this.options.reports.unsettledAt(start);
    if (unsettled) return unsettled.report;
    const tier = await this.options.heartbeatTier();
    const [usage, fleet] = await Promise.all([
      usageRollup(this.options.db, tier, start, end),
      this.options.fleet().catch(() => null),
    ]);
    return {
      reportId: randomUUID(),
      deploymentId: this.options.deploymentId,
      gatewayVersion: this.options.gatewayVersion,
      heartbeatTier: tier,
      window: { start: start.toISOString(), end: end.toISOString() },
      usage,
      fleet,
      leaseTrust: this.options.leaseTrust,
    };
  }

  private async send(report: MeterReport): Promise<void> {
    const { reports, billing, gate, deploymentId } = this.options;
    await reports.recordAttempt(report, new Date(this.options.clock.now()));
    let failure: BillingCallFailed;
    try {
      const answer = await billing.meter(report);
      const check = await holdLease(
        { db: this.options.db, deploymentId, trust: this.options.trust, gate, clock: this.options.clock },
        answer.lease,
      );
      if (check.ok) {
        await reports.markAccepted(report.reportId, {
          status: check.payload.status,
          expiresAt: check.payload.expiresAt,
        });
        await reports.prune();
        this.succeed();
        return;
      }
      // Billing took the report but its lease does not verify: the report is counted, the lease is not trusted.
      this.options.logger.error(
        { reason: check.reason },
        'billing answered with a lease that does not verify against the trusted keys',
      );
      failure = new BillingCallFailed(
        'unverifiable_lease',
        200,
        `the lease billing answered with does not verify (${check.reason})`,
      );
    } catch (error) {
      if (!(error instanceof BillingCallFailed)) throw error;
      failure = error;
    }
    await reports.markFailed(report.reportId, { httpStatus: failure.httpStatus, errorCode: failure.code });
    this.fail(failure);
    await this.options.refresher?.afterFailedReport();
  }

  private succeed(): void {
    this.failures = 0;
    this.state = 'ok';
    this.lastError = null;
  }

  private fail(failure: BillingCallFailed): void {
    this.failures += 1;
    this.state = 'failing';
    this.lastError = {
      code: failure.code,
      httpStatus: failure.httpStatus,
      at: new Date(this.options.clock.now()).toISOString(),
    };
    if (this.failures === 1 || this.failures % 10 === 0)
      this.options.logger.warn(
        { code: failure.code, status: failure.httpStatus, failures: this.failures },
        'usage report not accepted by billing; keeping the last lease',
      );
  }
}
