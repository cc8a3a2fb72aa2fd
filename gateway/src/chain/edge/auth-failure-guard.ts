import type { Coord } from '@gw/platform';
import { gatewayErrors } from '../../errors.js';

export interface AuthFailureGuardOptions {
  /** Bad-key attempts one address may make per window before it is throttled. */
  limit: number;
  windowMs: number;
}

export const defaultAuthFailureGuard: AuthFailureGuardOptions = { limit: 30, windowMs: 60_000 };

/**
 * Throttles addresses that keep presenting bad keys. Counting happens only on failure, so the
 * happy path pays nothing; a valid key from the same address (a shared office NAT) keeps working.
 */
export class AuthFailureGuard {
  constructor(
    private readonly coord: Coord,
    private readonly options: AuthFailureGuardOptions = defaultAuthFailureGuard,
  ) {}

  /** Record a failure; returns the 429 to send instead of the 401 once the address is over its allowance. */
  async recordFailure(address: string): Promise<Error | null> {
    let failures: number;
    try {
      failures = await this.coord.incrementBy(`authfail:${address}`, 1, this.options.windowMs);
    } catch {
      return null; // the guard is best-effort; an outage of the counter store must not turn 401s into 500s
    }
    if (failures <= this.options.limit) return null;
    return gatewayErrors.tooManyAuthFailures(Math.ceil(this.options.windowMs / 1000));
  }
}
