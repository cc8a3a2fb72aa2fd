export interface RestartPolicyOptions {
  /** Wait before the first restart after a stable run; doubles with each further restart in a row. */
  initialDelayMs: number;
  /** The longest wait between restarts. */
  maxDelayMs: number;
  /** At most this many restarts within `windowMs`; one more exit and the component is given up. */
  maxRestarts: number;
  windowMs: number;
  /** A run at least this long counts as stable: the next restart waits `initialDelayMs` again. */
  stableMs: number;
}

export const defaultRestartPolicy: RestartPolicyOptions = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  maxRestarts: 5,
  windowMs: 60_000,
  stableMs: 30_000,
};

export type RestartDecision =
  | {
      action: 'restart';
      delayMs: number;
      /** Restarts within the window, this one included. */ restartsInWindow: number;
    }
  | { action: 'give_up'; restartsInWindow: number };

/**
 * When to restart a component that exited: exponential backoff while it keeps exiting, back to the shortest wait after
 * a stable run, and a limit on restarts within a sliding window past which it is given up (a crash loop is a fault
 * to look at, not to hide). Pure: the caller passes the times.
 */
export class RestartPolicy {
  private readonly options: RestartPolicyOptions;
  private restartTimes: number[] = [];
  private inARow = 0;

  constructor(options: Partial<RestartPolicyOptions> = {}) {
    this.options = { ...defaultRestartPolicy, ...options };
  }

  /** The component, started at `startedAt`, exited at `now`. */
  onExit(startedAt: number, now: number): RestartDecision {
    const { initialDelayMs, maxDelayMs, maxRestarts, windowMs, stableMs } = this.options;
    if (now - startedAt >= stableMs) this.inARow = 0;
    this.restartTimes = this.restartTimes.filter((time) => now - time < windowMs);
    if (this.restartTimes.length >= maxRestarts)
      return { action: 'give_up', restartsInWindow: this.restartTimes.length };
    const delayMs = Math.min(maxDelayMs, initialDelayMs * 2 ** this.inARow);
    this.inARow += 1;
    this.restartTimes.push(now);
    return { action: 'restart', delayMs, restartsInWindow: this.restartTimes.length };
  }
}
