import type { KeyObject } from 'node:crypto';
import {
  entitlementLeasePayload,
  leaseSigningContext,
  signedLease,
  type EntitlementLeasePayload,
  type SignedLease,
} from '@gw/contracts';
import { signDetached, verifyDetached, type SignedKind } from '../signing/detached-signature.js';
import { trustedKeysOf, type TrustedKeys } from '../signing/pinned-keys.js';

const leaseKind: SignedKind<EntitlementLeasePayload> = {
  envelope: signedLease,
  payload: entitlementLeasePayload,
  context: leaseSigningContext,
};

/** Sign a lease (billing's side; the testkit simulator uses it, so signer and verifier cannot drift). */
export function signLease(payload: EntitlementLeasePayload, privateKey: KeyObject, keyId: string): SignedLease {
  return signDetached(leaseKind, payload, privateKey, keyId);
}

/** Public keys a lease verifier trusts, by key id (raw Ed25519, base64url). */
export type LeaseTrustStore = TrustedKeys;
export const leaseTrustStore = trustedKeysOf;

export type LeaseCheck =
  | { ok: true; payload: EntitlementLeasePayload }
  | { ok: false; reason: 'malformed' | 'unknown_key' | 'bad_signature' | 'wrong_deployment' };

/**
 * Verify a lease as stored or received: a trusted key id, a signature over the exact payload bytes, a payload of the
 * known shape, issued to this deployment. Expiry is the caller's to judge (an expired lease is still a verified one:
 * it says "expired", not "unverifiable").
 */
export function verifyLease(value: unknown, trust: LeaseTrustStore, deploymentId: string): LeaseCheck {
  const check = verifyDetached(leaseKind, value, trust);
  if (!check.ok) return check;
  if (check.payload.deploymentId !== deploymentId) return { ok: false, reason: 'wrong_deployment' };
  return { ok: true, payload: check.payload };
}
