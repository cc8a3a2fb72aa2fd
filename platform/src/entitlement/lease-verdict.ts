import type { EntitlementLeasePayload } from '@gw/contracts';
import type { LeaseCheck } from './lease-signature.js';

/**
 * What a lease means right now:
 *   none          no lease at all: served (an unmetered gateway, an optimizer without a gateway)
 *   active        verified, in date, active
 *   paused        verified, in date, `optimizerEnabled: false` (inference served, optimizer 402)
 *   suspended     verified, in date, `status: suspended` (403)
 *   expired       verified but past `expiresAt`, however long ago and whatever restarted since (402)
 *   unverifiable  a stored lease that does not verify against the trusted keys or this deployment (402)
 */
export const leaseStates = ['none', 'active', 'paused', 'suspended', 'expired', 'unverifiable'] as const;
export type LeaseState = (typeof leaseStates)[number];

export interface LeaseVerdict {
  state: LeaseState;
  /** The verified payload, when there is one (expired leases included). */
  payload: EntitlementLeasePayload | null;
}

export const noLease: LeaseVerdict = Object.freeze({ state: 'none', payload: null });

export function leaseVerdictOf(check: LeaseCheck | null, nowMs: number): LeaseVerdict {
  if (check === null) return noLease;
  if (!check.ok) return { state: 'unverifiable', payload: null };
  const { payload } = check;
  if (Date.parse(payload.expiresAt) <= nowMs) return { state: 'expired', payload };
  if (payload.status === 'suspended') return { state: 'suspended', payload };
  return { state: payload.optimizerEnabled ? 'active' : 'paused', payload };
}
