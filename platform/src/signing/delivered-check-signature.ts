import type { KeyObject } from 'node:crypto';
import {
  deliveredCheckPayload,
  deliveredCheckSigningContext,
  signedDeliveredCheck,
  type DeliveredCheckPayload,
  type SignedDeliveredCheck,
} from '@gw/contracts';
import { ed25519PublicKey, ed25519Sign, ed25519Verify } from '../crypto.js';

/**
 * Sign a delivered check (the vendor's side; the testkit signer uses it, so signer and verifier cannot drift). The
 * payload is signed as given, unchecked, so a test can sign what the service must refuse.
 */
export function signDeliveredCheck(payload: unknown, privateKey: KeyObject, keyId: string): SignedDeliveredCheck {
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return { keyId, payload: encoded, signature: ed25519Sign(privateKey, deliveredCheckSigningContext + encoded) };
}

/** Public keys delivered checks verify against, by key id. */
export type DeliveredCheckTrust = ReadonlyMap<string, KeyObject>;

export function deliveredCheckTrust(keys: Readonly<Record<string, string>>): DeliveredCheckTrust {
  return new Map(Object.entries(keys).map(([keyId, raw]) => [keyId, ed25519PublicKey(raw)]));
}

export type DeliveredCheckOpening =
  | { ok: true; payload: DeliveredCheckPayload; decoded: Record<string, unknown> }
  | { ok: false; reason: 'malformed' | 'unknown_key' | 'bad_signature'; decoded?: undefined }
  | { ok: false; reason: 'invalid_payload'; decoded: Record<string, unknown>; detail: string };

/**
 * Open an envelope offline: a pinned key id, a signature over the exact payload characters, then the payload's JSON.
 * `decoded` is the signed JSON as is (for the caller's script screen, which must see fields the schema refuses).
 */
export function openDeliveredCheck(value: unknown, trust: DeliveredCheckTrust): DeliveredCheckOpening {
  const envelope = signedDeliveredCheck.safeParse(value);
  if (!envelope.success) return { ok: false, reason: 'malformed' };
  const key = trust.get(envelope.data.keyId);
  if (!key) return { ok: false, reason: 'unknown_key' };
  if (!ed25519Verify(key, deliveredCheckSigningContext + envelope.data.payload, envelope.data.signature))
    return { ok: false, reason: 'bad_signature' };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(envelope.data.payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded))
    return { ok: false, reason: 'malformed' };
  const record = decoded as Record<string, unknown>;
  const payload = deliveredCheckPayload.safeParse(record);
  if (!payload.success) {
    const issue = payload.error.issues[0];
    const detail = issue ? `${issue.path.map(String).join('.') || 'payload'}: ${issue.message}` : 'invalid payload';
    return { ok: false, reason: 'invalid_payload', decoded: record, detail };
  }
  return { ok: true, payload: payload.data, decoded: record };
}
