import type { AppError } from '@gw/platform';
import { optimizerError } from '../errors.js';

/** The entitlement lease as last read and verified. */
export type LeaseVerdict =
  | { state: 'none' }
  | { state: 'valid' }
  | { state: 'paused' }
  | { state: 'suspended' }
  | { state: 'expired' }
  | { state: 'unverifiable' };

/**
 * A memoized lease check: `current()` never touches a store, a timer refreshes it. The verified
 * reader is `StoredLeaseReader`; an optimizer with no gateway lease to read (no shared store or no deployment id)
 * runs with `noLeaseReader`, the spec's "no lease at all: served normally" row.
 */
export interface LeaseReader {
  current(): LeaseVerdict;
}

export const noLeaseReader: LeaseReader = { current: () => ({ state: 'none' }) };

/** The refusal for value-delivering endpoints, or null to serve. Retrieve and record are never gated. */
export function leaseRefusal(verdict: LeaseVerdict): AppError | null {
  switch (verdict.state) {
    case 'paused':
      return optimizerError('optimizer_paused');
    case 'suspended':
      return optimizerError('subscription_suspended');
    case 'expired':
    case 'unverifiable':
      return optimizerError('lease_invalid');
    default:
      return null;
  }
}
