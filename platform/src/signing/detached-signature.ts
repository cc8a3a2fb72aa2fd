import type { KeyObject } from 'node:crypto';
import type { z } from 'zod';
import { ed25519Sign, ed25519Verify } from '../crypto.js';
import type { TrustedKeys } from './pinned-keys.js';

/** A payload signed apart from itself: base64url JSON, an Ed25519 signature over context + payload, the key id. */
export interface DetachedSignature {
  payload: string;
  signature: string;
  keyId: string;
}

/**
 * What a signed document is: the envelope's schema, the payload's schema, and the context string prefixed to the
 * signed bytes (domain separation: a signature of one kind can never be replayed as another).
 */
export interface SignedKind<Payload> {
  envelope: z.ZodType<DetachedSignature>;
  payload: z.ZodType<Payload>;
  context: string;
}

/** Sign a payload (the signer's side; the testkit simulators use it, so signer and verifier cannot drift). */
export function signDetached<Payload>(
  kind: SignedKind<Payload>,
  payload: Payload,
  privateKey: KeyObject,
  keyId: string,
): DetachedSignature {
  const encoded = Buffer.from(JSON.stringify(kind.payload.parse(payload))).toString('base64url');
  return { payload: encoded, signature: ed25519Sign(privateKey, kind.context + encoded), keyId };
}

export type DetachedFailure = 'malformed' | 'unknown_key' | 'bad_signature';
export type DetachedCheck<Payload> =
  { ok: true; payload: Payload; envelope: DetachedSignature } | { ok: false; reason: DetachedFailure };

/**
 * Verify a signed document as received: a trusted key id, a signature over the exact payload bytes, a payload of the
 * known shape. What the payload must then say (deployment, validity) is the caller's to judge.
 */
export function verifyDetached<Payload>(
  kind: SignedKind<Payload>,
  value: unknown,
  trust: TrustedKeys,
): DetachedCheck<Payload> {
  const envelope = kind.envelope.safeParse(value);
  if (!envelope.success) return { ok: false, reason: 'malformed' };
  const key = trust.get(envelope.data.keyId);
  if (!key) return { ok: false, reason: 'unknown_key' };
  if (!ed25519Verify(key, kind.context + envelope.data.payload, envelope.data.signature))
    return { ok: false, reason: 'bad_signature' };
  const payload = decodeSignedPayload(envelope.data.payload, kind.payload);
  if (payload === null) return { ok: false, reason: 'malformed' };
  return { ok: true, payload, envelope: envelope.data };
}

/** A signed payload's JSON, read by its schema; null when it is not base64url JSON of that shape. */
export function decodeSignedPayload<Payload>(encoded: string, schema: z.ZodType<Payload>): Payload | null {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const payload = schema.safeParse(decoded);
  return payload.success ? payload.data : null;
}
