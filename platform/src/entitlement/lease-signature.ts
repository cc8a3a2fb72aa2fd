import type { KeyObject } from 'node:crypto';
import {
  entitlementLeasePayload,
  leaseSigningContext,
  signedLease,
  type EntitlementLeasePayload,
  type SignedLease,
} from '@gw/contracts';
import { ed25519PublicKey, ed25519Sign, ed25519Verify } from '../crypto.js';

/** Sign a lease (billing's side; the testkit simulator uses it, so signer and verifier cannot drift). */
export function signLease(payload: EntitlementLeasePayload, privateKey: KeyObject, keyId: string): SignedLease {
  const encoded = Buffer.from(JSON.stringify(entitlementLeasePayload.parse(payload))).toString('base64url');
  return { payload: encoded, signature: ed25519Sign(privateKey, leaseSigningContext + encoded), keyId };
}

/** Public keys a verifier trusts, by key id (raw Ed25519, base64url). */
export type LeaseTrustStore = ReadonlyMap<string, KeyObject>;

export function leaseTrustStore(keys: Readonly<Record<string, string>>): LeaseTrustStore {
  return new Map(Object.entries(keys).map(([keyId, raw]) => [keyId, ed25519PublicKey(raw)]));
}

export type LeaseCheck =
  | { ok: true; payload: EntitlementLeasePayload }
  | { ok: false; reason: 'malformed' | 'unknown_key' | 'bad_signature' | 'wrong_deployment' };

/**
 * Verify a lease as stored or received: a trusted key id, a signature over the exact payload bytes, a payload of the
 * known shape, issued to this deployment. Expiry is the caller's to judge (an expired lease is still a verified one:
 * it says "expired", not "unverifiable").
 */
export function verifyLease(value: unknown, trust: LeaseTrustStore, deploymentId: string): LeaseCheck {
  const envelope = signedLease.safeParse(value);
  if (!envelope.success) return { ok: false, reason: 'malformed' };
  const key = trust.get(envelope.data.keyId);
  if (!key) return { ok: false, reason: 'unknown_key' };
  if (!ed25519Verify(key, leaseSigningContext + envelope.data.payload, envelope.data.signature))
    return { ok: false, reason: 'bad_signature' };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(envelope.data.payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const payload = entitlementLeasePayload.safeParse(decoded);
  if (!payload.success) return { ok: false, reason: 'malformed' };
  if (payload.data.deploymentId !== deploymentId) return { ok: false, reason: 'wrong_deployment' };
  return { ok: true, payload: payload.data };
}
