import { isoInstant } from '@gw/platform';
export type CircuitState = 'closed' | 'open' | 'half_open';

export const circuitStates: readonly CircuitState[] = ['closed', 'open', 'half_open'];

export interface CircuitBreakerOptions {
  /** Consecutive failed calls that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit skips the optimizer before letting one probe through. */
  coolOffMs: number;
  now: () => number;
}

export interface CircuitSnapshot {
  state: CircuitState;
  consecutiveFailures: number;
  /** When the circuit last opened (ISO 8601), null while it has never opened since it last closed. */
  openedAt: string | null;
  /** When an open circuit lets its next probe through (ISO 8601); null unless open. */
  probeAt: string | null;
  /** Calls that skipped the optimizer since the process started. */
  skipped: number;
}

/**
 * A circuit breaker for the optimizer's pre-call hook. Closed: every call goes to the optimizer, and
 * `failureThreshold` failures in a row open it. Open: calls skip the optimizer (fail-open at no cost) until
 * `coolOffMs` has passed; the first call after that is a probe (half-open) while the others keep skipping. The probe's
 * success closes the circuit; its failure opens it for another cool-off. So a hung optimizer costs at most the calls
 * in flight when it hangs plus one probe per cool-off their timeout, instead of every call.
 *
 * A pure state machine over an injected clock: the caller asks `tryAcquire()` before a call and reports the call's
 * outcome with `succeeded()` or `failed()` (every acquired call must report exactly one).
 */
export class CircuitBreaker {
  private current: CircuitState = 'closed';
  private failures = 0;
  private openedAtMs: number | null = null;
  private probeInFlight = false;
  private skips = 0;
  private readonly listeners: Array<(state: CircuitState) => void> = [];

  constructor(private readonly options: CircuitBreakerOptions) {}

  get state(): CircuitState {
    return this.current;
  }

  /** Called on every state change (for logs). */
  onChange(listener: (state: CircuitState) => void): void {
    this.listeners.push(listener);
  }

  /** May this call go to the optimizer? False means skip it; true means call and report the outcome. */
  tryAcquire(): boolean {
    if (this.current === 'closed') return true;
    if (
      this.current === 'open' &&
      this.openedAtMs !== null &&
      this.options.now() - this.openedAtMs >= this.options.coolOffMs
    )
      this.moveTo('half_open');
    if (this.current === 'half_open' && !this.probeInFlight) {
      this.probeInFlight = true;
      return true;
    }
    this.skips += 1;
    return false;
  }

  succeeded(): void {
    this.failures = 0;
    this.probeInFlight = false;
    if (this.current !== 'closed') {
      this.openedAtMs = null;
      this.moveTo('closed');
    }
  }

  failed(): void {
    this.failures += 1;
    // A failed probe re-opens at once; calls started while still closed count towards the threshold. A call that
    // started before the circuit opened and fails afterwards leaves the open circuit's cool-off where it is.
    if (this.current === 'half_open' || (this.current === 'closed' && this.failures >= this.options.failureThreshold)) {
      this.probeInFlight = false;
      this.openedAtMs = this.options.now();
      this.moveTo('open');
    }
  }

  snapshot(): CircuitSnapshot {
    const probeAtMs =
      this.current === 'open' && this.openedAtMs !== null ? this.openedAtMs + this.options.coolOffMs : null;
    return {
      state: this.current,
      consecutiveFailures: this.failures,
      openedAt: this.openedAtMs === null ? null : isoInstant(this.openedAtMs),
      probeAt: probeAtMs === null ? null : isoInstant(probeAtMs),
      skipped: this.skips,
    };
  }

  private moveTo(state: CircuitState): void {
    this.current = state;
    for (const listener of this.listeners) listener(state);
  }
}
