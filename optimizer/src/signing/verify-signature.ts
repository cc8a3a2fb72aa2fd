import type { KeyObject } from 'node:crypto';
import { createPublicKey } from 'node:crypto';
import { ed25519PublicKey, ed25519Verify, type Clock } from '@gw/platform';
import type { SignatureFailure } from '../errors.js';
import type { ReplayStore } from './replay-store.js';
import { signaturePayload } from '@gw/platform';

/** Freshness and replay window. */
export const signatureWindowMs = 60_000;

const canonicalTimestamp = /^(0|[1-9][0-9]{0,15})$/;
const canonicalSignature = /^[A-Za-z0-9_-]{86}$/;

/** A verify key as configuration carries it: base64url of the raw 32-byte Ed25519 public key, or a PEM SPKI block. */
export function parseVerifyKey(value: string): KeyObject {
  const trimmed = value.trim();
  if (trimmed.startsWith('-----BEGIN')) {
    const key = createPublicKey(trimmed);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error('verify key must be an Ed25519 public key');
    return key;
  }
  return ed25519PublicKey(trimmed);
}

/**
 * Request signing, exactly Both halves spelled canonically (the signature is re-encoded and
 * compared), the payload hashes the raw body, and a signature is single-use inside a 60-second window.
 */
export class SignatureVerifier {
  constructor(
    private readonly publicKey: KeyObject,
    private readonly clock: Clock,
    private readonly replays: ReplayStore,
  ) {}

  async verify(
    header: string | string[] | undefined,
    method: string,
    path: string,
    rawBody: Uint8Array | string,
  ): Promise<SignatureFailure | null> {
    if (header === undefined || header === '') return 'missing';
    if (typeof header !== 'string') return 'malformed';
    const parts = header.split('.');
    if (parts.length !== 2) return 'malformed';
    const [timestamp, signature] = parts as [string, string];
    if (!canonicalTimestamp.test(timestamp) || !canonicalSignature.test(signature)) return 'non_canonical';
    // Node's base64url decoder ignores stray low bits in the last character; re-encoding exposes a second spelling.
    if (Buffer.from(signature, 'base64url').toString('base64url') !== signature) return 'non_canonical';
    const signedAt = Number(timestamp);
    if (Math.abs(this.clock.now() - signedAt) > signatureWindowMs) return 'stale';
    if (!ed25519Verify(this.publicKey, signaturePayload(timestamp, method, path, rawBody), signature)) return 'invalid';
    // Claimed only after verifying, so garbage cannot fill the replay store; kept past the window's far edge.
    const fresh = await this.replays.claim(signature, 2 * signatureWindowMs);
    return fresh ? null : 'replayed';
  }
}
