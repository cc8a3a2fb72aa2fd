import { createHash } from 'node:crypto';
import { BoundedMap } from './bounded-map.js';
import { GuardLane, type GuardState, type LaneSnapshot, type LaneTransition } from './guard-lane.js';
import type { GuardSettings } from './guard-thresholds.js';
import { SessionSignals, type RegretSignal } from './session-signals.js';

/** What the guard answers for one strategy on one request. */
export type GuardVerdict = 'allow' | 'probe' | 'suppress_open' | 'suppress_half_open';

interface HandleRecord {
  readonly tenant: string;
  readonly kinds: readonly string[];
  readonly firedAt: number;
  regrettedAt: number | undefined;
}

export interface RegressionGuardOptions {
  /** The guard block of the live settings (read on every call, so a settings PUT applies at once). */
  readonly settings: () => GuardSettings;
  readonly onTransition?: (transition: LaneTransition) => void;
  readonly onRegret?: (signal: RegretSignal, kind: string) => void;
}

/** Lanes checked for idleness every this many events, so the lane map stays as small as the live evidence. */
const sweepEvery = 1_024;

/**
 * The per-tenant, per-strategy regression guard of this replica: lanes with their state machines,
 * the handles and fires it has counted (a rewrite counts once however many turns replay it), and each session's
 * last turn for the signals the next turn reveals. In memory and per replica.
 */
export class RegressionGuard {
  readonly sessions = new SessionSignals();
  private readonly lanes = new Map<string, GuardLane>();
  private readonly handles = new BoundedMap<string, HandleRecord>(100_000);
  private readonly fires = new BoundedMap<string, number>(100_000);
  private events = 0;

  constructor(private readonly options: RegressionGuardOptions) {}

  get settings(): GuardSettings {
    return this.options.settings();
  }

  /**
   * May `kind` run for this request? Closed: yes. Open: no. Half-open: only when the request falls in the probing
   * cohort, chosen by hashing the request (never `Math.random`), so the same request gets the same answer.
   */
  verdict(tenant: string, kind: string, requestFingerprint: string, now: number): GuardVerdict {
    const lane = this.lanes.get(laneKey(tenant, kind));
    if (!lane) return 'allow';
    const { enabled, thresholds } = this.settings;
    lane.advance(now, thresholds);
    if (lane.state === 'closed') return 'allow';
    if (lane.state === 'half_open') {
      const cohort = probeCohortOf(requestFingerprint, kind, thresholds.probeOneIn);
      if (cohort === lane.probeCohort(now, thresholds)) return 'probe';
    }
    // Switched off, the guard keeps counting but holds nothing back; every half-open fire then probes.
    if (!enabled) return lane.state === 'half_open' ? 'probe' : 'allow';
    return lane.state === 'open' ? 'suppress_open' : 'suppress_half_open';
  }

  /**
   * A rewrite of `kind`. `fireKey` names the rewritten content (its handle, or its place in the session) so a
   * rewrite replayed turn after turn counts once per window; null counts every time. Returns when the rewrite was
   * first counted, which later regrets refer to.
   */
  fire(tenant: string, kind: string, fireKey: string | null, probe: boolean, now: number): number {
    const { thresholds } = this.settings;
    if (fireKey !== null) {
      const key = `${kind}\u0000${fireKey}`;
      const firedAt = this.fires.get(key);
      if (firedAt !== undefined && now - firedAt < thresholds.windowMs) return firedAt;
      this.fires.set(key, now);
    }
    this.lane(tenant, kind).fire(now, probe, thresholds);
    this.afterEvent(now);
    return now;
  }

  regret(tenant: string, kind: string, firedAt: number, signal: RegretSignal, now: number): void {
    this.lane(tenant, kind).regret(now, firedAt, this.settings.thresholds);
    this.options.onRegret?.(signal, kind);
    this.afterEvent(now);
  }

  /** Remembers which strategies elided behind `handle`, so a later retrieve can be charged to them. */
  noteHandle(handle: string, tenant: string, kinds: readonly string[], firedAt: number): void {
    const known = this.handles.get(handle);
    // A handle seen again (a replayed pin) keeps its first record: that is when it fired.
    if (known && known.tenant === tenant) return;
    this.handles.set(handle, { tenant, kinds, firedAt, regrettedAt: undefined });
  }

  /**
   * The model retrieved an elided original (automated callers with `metadata.source` never
   * get here). One regret per handle per window, however many ranges of it are fetched. False when this replica
   * never saw the handle emitted or replayed, so nothing can be charged.
   */
  retrieved(handle: string, now: number): boolean {
    const record = this.handles.get(handle);
    if (!record) return false;
    const { windowMs } = this.settings.thresholds;
    if (record.regrettedAt !== undefined && now - record.regrettedAt < windowMs) return true;
    record.regrettedAt = now;
    for (const kind of record.kinds) this.regret(record.tenant, kind, record.firedAt, 'retrieve', now);
    return true;
  }

  snapshots(now: number): LaneSnapshot[] {
    const { thresholds } = this.settings;
    return [...this.lanes.values()]
      .map((lane) => lane.snapshot(now, thresholds))
      .sort((a, b) => (a.tenant === b.tenant ? compare(a.kind, b.kind) : compare(a.tenant, b.tenant)));
  }

  stateCounts(now: number): Record<GuardState, number> {
    const counts: Record<GuardState, number> = { closed: 0, open: 0, half_open: 0 };
    for (const snapshot of this.snapshots(now)) counts[snapshot.state] += 1;
    return counts;
  }

  private lane(tenant: string, kind: string): GuardLane {
    const key = laneKey(tenant, kind);
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = new GuardLane(tenant, kind, this.options.onTransition);
      this.lanes.set(key, lane);
    }
    return lane;
  }

  private afterEvent(now: number): void {
    this.events += 1;
    if (this.events % sweepEvery !== 0) return;
    const { thresholds } = this.settings;
    for (const [key, lane] of this.lanes) if (lane.idle(now, thresholds)) this.lanes.delete(key);
  }
}

function laneKey(tenant: string, kind: string): string {
  return `${tenant}\u0000${kind}`;
}

/** The cohort a request belongs to for one strategy: a hash of the request and the kind, never randomness. */
export function probeCohortOf(requestFingerprint: string, kind: string, cohorts: number): number {
  return createHash('sha256').update(`${requestFingerprint}\u0000${kind}`).digest().readUInt32BE(0) % cohorts;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
