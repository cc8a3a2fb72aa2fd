import type { KeyObject } from 'node:crypto';
import { ed25519PrivateKey, ed25519Sign, sha256Hex } from '../crypto.js';

/** Header carrying `<timestamp>.<signature>`. */
export const signatureHeader = 'x-gw-signature';

/** The exact bytes signed: `<timestamp>.<METHOD>.<path>.<sha256-hex of the raw body>` (the body hash, never the body). */
export function signaturePayload(
  timestamp: string,
  method: string,
  path: string,
  rawBody: Uint8Array | string,
): string {
  return `${timestamp}.${method.toUpperCase()}.${path}.${sha256Hex(rawBody)}`;
}

/**
 * Sign one optimizer call. `path` is the request path without the query string; `rawBody` the exact bytes sent
 * (an empty string for a bodyless call). Returns the `x-gw-signature` header value. The gateway uses the same
 * function, so the two sides cannot drift.
 */
export function signRequest(
  privateKey: KeyObject | string,
  method: string,
  path: string,
  rawBody: Uint8Array | string,
  nowMs: number,
): string {
  const key = typeof privateKey === 'string' ? ed25519PrivateKey(privateKey) : privateKey;
  const timestamp = String(Math.trunc(nowMs));
  return `${timestamp}.${ed25519Sign(key, signaturePayload(timestamp, method, path, rawBody))}`;
}
