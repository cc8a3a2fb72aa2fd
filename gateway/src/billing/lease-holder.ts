import type { SignedLease } from '@gw/contracts';
import {
  verifyLease,
  writeStoredLease,
  type Clock,
  type LeaseCheck,
  type LeaseTrustStore,
  type Queryable,
} from '@gw/platform';
import type { EntitlementGate } from './entitlement-gate.js';

export interface LeaseHolderDeps {
  db: Queryable;
  deploymentId: string;
  trust: LeaseTrustStore;
  gate: EntitlementGate;
  clock: Clock;
}

/**
 * A lease billing just answered with (to a report or a refresh): verified against the trusted keys, then stored exactly
 * as signed for every replica and held by this one at once. An unverifiable lease is neither stored nor held.
 */
export async function holdLease(deps: LeaseHolderDeps, lease: SignedLease): Promise<LeaseCheck> {
  const check = verifyLease(lease, deps.trust, deps.deploymentId);
  if (!check.ok) return check;
  await writeStoredLease(deps.db, deps.deploymentId, lease, check.payload.issuedAt, new Date(deps.clock.now()));
  deps.gate.accept(check);
  return check;
}
