import { binomialUpperTail } from './binomial.js';
import { DecayedScore } from './decayed-score.js';
import type { GuardThresholds } from './guard-thresholds.js';
import { RollingCounts } from './rolling-counts.js';

export type GuardState = 'closed' | 'open' | 'half_open';
export type OpenReason = 'window' | 'low_traffic' | 'score' | 'relapse';

export interface LaneTransition {
  readonly tenant: string;
  readonly kind: string;
  readonly from: GuardState;
  readonly to: GuardState;
  readonly reason: OpenReason | 'cool_off' | 'probes_clean' | 'quiet';
  readonly at: number;
}

export interface LaneSnapshot {
  readonly tenant: string;
  readonly kind: string;
  readonly state: GuardState;
  readonly regretRate: number;
  readonly fired: number;
  readonly regrets: number;
  readonly reason: OpenReason | null;
  readonly reopensAt: number | null;
  readonly relapses: number;
}

/** Floating-point slack for "at or above the rate" (10 regrets in 50 fires is exactly 20%). */
const rateSlack = 1e-9;

/**
 * One tenant's regression guard for one strategy: closed (running) → open (suppressed) on regret
 * evidence; open → half-open when the cool-off elapses; half-open → closed after clean probes or a long clean quiet
 * look, or back to open on a confirmed relapse with the cool-off doubled. Time only moves through the `now` each
 * call passes in, so a fake clock drives every transition.
 */
export class GuardLane {
  state: GuardState = 'closed';
  private readonly window = new RollingCounts<'fired' | 'regrets'>();
  private readonly score = new DecayedScore();
  private reason: OpenReason | null = null;
  private openedRate = 0;
  private reopensAt = 0;
  private relapses = 0;
  private halfOpenSince = 0;
  private rotationStart = 0;
  private cleanSince = 0;
  private probeFires = 0;
  private probeRegrets = 0;

  constructor(
    readonly tenant: string,
    readonly kind: string,
    private readonly onTransition: (transition: LaneTransition) => void = () => undefined,
  ) {}

  /** Applies the transitions that time alone causes: cool-off elapsed, a probe rotation ended. */
  advance(now: number, thresholds: GuardThresholds): void {
    if (this.state === 'open' && now >= this.reopensAt) this.enterHalfOpen(this.reopensAt);
    if (this.state === 'half_open') this.endRotations(now, thresholds);
  }

  /**
   * Probe cohort of a half-open lane: requests hash into `probeOneIn` cohorts and the probing cohort moves one step
   * per `probeRotationMs / probeOneIn`, so about one in `probeOneIn` eligible requests probes and one rotation
   * visits every cohort.
   */
  probeCohort(now: number, thresholds: GuardThresholds): number {
    const step = Math.max(1, thresholds.probeRotationMs / thresholds.probeOneIn);
    return Math.floor((now - this.rotationStart) / step) % thresholds.probeOneIn;
  }

  /** A fresh rewrite by this strategy; in half-open only a probe request's fire counts. */
  fire(now: number, probe: boolean, thresholds: GuardThresholds): void {
    this.advance(now, thresholds);
    if (this.state === 'closed') {
      this.window.add(now, 'fired', 1, thresholds.windowMs, thresholds.buckets);
      this.score.trial(now, thresholds.scoreHalfLifeMs);
      this.evaluateClosed(now, thresholds);
    } else if (this.state === 'half_open' && probe) {
      this.probeFires += 1;
    }
  }

  /**
   * A regret signal against a rewrite made at `firedAt`. Open lanes ignore regrets (they answer rewrites made
   * before the suppression); half-open lanes count only regrets of rewrites made since they turned half-open.
   */
  regret(now: number, firedAt: number, thresholds: GuardThresholds): void {
    this.advance(now, thresholds);
    if (this.state === 'closed') {
      this.window.add(now, 'regrets', 1, thresholds.windowMs, thresholds.buckets);
      this.score.regret(now, thresholds.scoreHalfLifeMs);
      this.evaluateClosed(now, thresholds);
      return;
    }
    if (this.state !== 'half_open' || firedAt < this.halfOpenSince) return;
    this.probeRegrets += 1;
    this.cleanSince = now;
    const confirmed =
      this.probeRegrets >= thresholds.relapseMinRegrets &&
      this.probeRegrets + rateSlack >= thresholds.regretRate * this.probeFires;
    if (confirmed) {
      this.relapses += 1;
      this.open(now, 'relapse', this.probeRegrets / Math.max(1, this.probeFires), thresholds);
    }
  }

  snapshot(now: number, thresholds: GuardThresholds): LaneSnapshot {
    this.advance(now, thresholds);
    let fired = this.probeFires;
    let regrets = this.probeRegrets;
    if (this.state === 'closed') {
      const totals = this.window.sum(now, thresholds.windowMs);
      fired = totals.get('fired') ?? 0;
      regrets = totals.get('regrets') ?? 0;
    }
    const rate = this.state === 'open' ? this.openedRate : fired === 0 ? 0 : regrets / fired;
    return {
      tenant: this.tenant,
      kind: this.kind,
      state: this.state,
      regretRate: Math.round(rate * 10_000) / 10_000,
      fired: this.state === 'open' ? 0 : fired,
      regrets: this.state === 'open' ? 0 : regrets,
      reason: this.reason,
      reopensAt: this.state === 'open' ? this.reopensAt : null,
      relapses: this.relapses,
    };
  }

  /** Closed with nothing counted: the lane carries no information and may be dropped. */
  idle(now: number, thresholds: GuardThresholds): boolean {
    this.advance(now, thresholds);
    return (
      this.state === 'closed' &&
      this.relapses === 0 &&
      this.window.sum(now, thresholds.windowMs).size === 0 &&
      this.score.negligible(now, thresholds.scoreHalfLifeMs)
    );
  }

  private evaluateClosed(now: number, thresholds: GuardThresholds): void {
    const totals = this.window.sum(now, thresholds.windowMs);
    const fired = totals.get('fired') ?? 0;
    const regrets = totals.get('regrets') ?? 0;
    const rate = fired === 0 ? 0 : regrets / fired;
    if (regrets < thresholds.minRegrets) return this.evaluateScore(now, thresholds);
    if (fired >= thresholds.minFired && rate + rateSlack >= thresholds.regretRate)
      return this.open(now, 'window', rate, thresholds);
    const lowTraffic = fired >= thresholds.lowTrafficMinFired && fired < thresholds.minFired;
    if (lowTraffic && binomialUpperTail(fired, regrets, thresholds.regretRate) <= thresholds.lowTrafficPValue)
      return this.open(now, 'low_traffic', rate, thresholds);
    this.evaluateScore(now, thresholds);
  }

  private evaluateScore(now: number, thresholds: GuardThresholds): void {
    const { score, trials, regrets } = this.score.read(now, thresholds.regretRate, thresholds.scoreHalfLifeMs);
    if (score >= thresholds.scoreThreshold && trials >= thresholds.minFired && regrets >= thresholds.minRegrets)
      this.open(now, 'score', trials === 0 ? 0 : regrets / trials, thresholds);
  }

  /** Cool-off: the base, doubled per consecutive relapse up to the cap, and never longer than the window. */
  private coolOff(thresholds: GuardThresholds): number {
    const multiplier = Math.min(Math.pow(2, this.relapses), thresholds.coolOffMaxMultiplier);
    return Math.min(thresholds.coolOffMs * multiplier, thresholds.windowMs);
  }

  private open(now: number, reason: OpenReason, rate: number, thresholds: GuardThresholds): void {
    const from = this.state;
    this.state = 'open';
    this.reason = reason;
    this.openedRate = rate;
    this.reopensAt = now + this.coolOff(thresholds);
    this.onTransition({ tenant: this.tenant, kind: this.kind, from, to: 'open', reason, at: now });
  }

  private enterHalfOpen(at: number): void {
    this.state = 'half_open';
    this.halfOpenSince = at;
    this.rotationStart = at;
    this.cleanSince = at;
    this.probeFires = 0;
    this.probeRegrets = 0;
    // Evidence from before the suppression has been acted on; probes decide from here.
    this.window.clear();
    this.score.reset();
    this.onTransition({ tenant: this.tenant, kind: this.kind, from: 'open', to: 'half_open', reason: 'cool_off', at });
  }

  /** Judges every probe rotation that ended by `now`: clean and busy enough closes, quiet and clean closes. */
  private endRotations(now: number, thresholds: GuardThresholds): void {
    while (this.state === 'half_open' && now >= this.rotationStart + thresholds.probeRotationMs) {
      const end = this.rotationStart + thresholds.probeRotationMs;
      const clean = this.probeRegrets === 0;
      if (clean && this.probeFires >= thresholds.restoreProbes) return this.close(end, 'probes_clean');
      if (clean && end - this.cleanSince >= thresholds.quietCloseMs) return this.close(end, 'quiet');
      this.rotationStart = end;
      this.probeFires = 0;
      this.probeRegrets = 0;
    }
  }

  private close(at: number, reason: 'probes_clean' | 'quiet'): void {
    this.state = 'closed';
    this.reason = null;
    // A clean recovery ends the run of consecutive relapses.
    this.relapses = 0;
    this.probeFires = 0;
    this.probeRegrets = 0;
    this.window.clear();
    this.score.reset();
    this.onTransition({ tenant: this.tenant, kind: this.kind, from: 'half_open', to: 'closed', reason, at });
  }
}
