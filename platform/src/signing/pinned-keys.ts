import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import { ed25519PublicKey } from '../crypto.js';

/** Public keys a verifier trusts, by key id (raw Ed25519, base64url). */
export type TrustedKeys = ReadonlyMap<string, KeyObject>;

/** One key an operator adds to those pinned in the image. */
export interface ConfiguredKey {
  keyId: string;
  publicKey: string;
}

/** `<keyId>:<raw Ed25519 public key, 43 base64url characters>`, the form a configured verify key takes. */
export const configuredKeyPattern = /^([A-Za-z0-9._-]{1,64}):([A-Za-z0-9_-]{43})$/;

export function parseConfiguredKey(value: string): ConfiguredKey {
  const match = configuredKeyPattern.exec(value);
  if (!match?.[1] || !match[2]) throw new Error('a verify key is <keyId>:<43 base64url characters>');
  return { keyId: match[1], publicKey: match[2] };
}

export function trustedKeysOf(keys: Readonly<Record<string, string>>): TrustedKeys {
  return new Map(Object.entries(keys).map(([keyId, raw]) => [keyId, ed25519PublicKey(raw)]));
}

/**
 * A setting that adds one verify key to those pinned in the image: `<keyId>:<raw Ed25519 public key>`. A pinned key
 * id with another key is refused: it would replace the signer's key rather than add one.
 */
export function configuredKeySetting(pinned: Readonly<Record<string, string>>) {
  return z.string().transform((value, context): ConfiguredKey => {
    if (!configuredKeyPattern.test(value)) {
      context.addIssue({
        code: 'custom',
        message: 'must be <keyId>:<raw Ed25519 public key, 43 base64url characters>',
      });
      return z.NEVER;
    }
    const key = parseConfiguredKey(value);
    if (Object.hasOwn(pinned, key.keyId) && pinned[key.keyId] !== key.publicKey) {
      context.addIssue({
        code: 'custom',
        message: `key id ${key.keyId} is pinned in the image with another key; choose another key id`,
      });
      return z.NEVER;
    }
    try {
      ed25519PublicKey(key.publicKey);
    } catch {
      context.addIssue({ code: 'custom', message: 'the key is not a raw 32-byte Ed25519 public key' });
      return z.NEVER;
    }
    return key;
  });
}

/** The keys a signature verifies against: those pinned in the image, plus the configured one. */
export function pinnedPlusConfigured(
  pinned: Readonly<Record<string, string>>,
  configured: ConfiguredKey | undefined,
): TrustedKeys {
  return trustedKeysOf(configured ? { ...pinned, [configured.keyId]: configured.publicKey } : pinned);
}
