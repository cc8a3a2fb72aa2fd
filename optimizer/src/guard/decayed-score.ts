/**
 * The guard's cross-window evidence: decayed counts of fires and regrets, and
 * the score as the decayed excess of regrets over what the regret rate allows, `regrets − rate × fires`. Behavior
 * at or below the rate drains it; everything fades with a half-life longer than the window, so a lane too slow for
 * any one window still opens when its regrets keep outrunning the rate.
 */
export class DecayedScore {
  private decayedTrials = 0;
  private decayedRegrets = 0;
  private at: number | undefined;

  trial(now: number, halfLifeMs: number): void {
    this.decay(now, halfLifeMs);
    this.decayedTrials += 1;
  }

  regret(now: number, halfLifeMs: number): void {
    this.decay(now, halfLifeMs);
    this.decayedRegrets += 1;
  }

  read(now: number, rate: number, halfLifeMs: number): { score: number; trials: number; regrets: number } {
    this.decay(now, halfLifeMs);
    return {
      score: Math.max(0, this.decayedRegrets - rate * this.decayedTrials),
      trials: this.decayedTrials,
      regrets: this.decayedRegrets,
    };
  }

  reset(): void {
    this.decayedTrials = 0;
    this.decayedRegrets = 0;
    this.at = undefined;
  }

  /** Nothing left worth keeping (the lane may be forgotten). */
  negligible(now: number, halfLifeMs: number): boolean {
    this.decay(now, halfLifeMs);
    return this.decayedTrials < 0.5 && this.decayedRegrets < 0.5;
  }

  private decay(now: number, halfLifeMs: number): void {
    if (this.at !== undefined && now > this.at) {
      const factor = Math.pow(2, -(now - this.at) / halfLifeMs);
      this.decayedTrials *= factor;
      this.decayedRegrets *= factor;
    }
    if (this.at === undefined || now > this.at) this.at = now;
  }
}
