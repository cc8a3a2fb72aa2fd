import { z } from 'zod';
import { ed25519PublicKey } from '../crypto.js';
import { leaseTrustStore, type LeaseTrustStore } from './lease-signature.js';
import { leaseVerifyKeyPattern, parseLeaseVerifyKey, pinnedLeaseKeys } from './pinned-lease-keys.js';

export interface ConfiguredLeaseKey {
  keyId: string;
  publicKey: string;
}

/** A deployment id as billing knows it; the gateway and the optimizer take the same value. */
export const deploymentIdSetting = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,128}$/, 'must be 1–128 letters, digits, dots, dashes or underscores');

/**
 * `GW_LEASE_VERIFY_KEY` for both services that verify leases: `<keyId>:<raw Ed25519 public key>`. A pinned key id
 * with another key is refused: it would replace billing's key rather than add one.
 */
export const leaseVerifyKeySetting = z.string().transform((value, context): ConfiguredLeaseKey => {
  if (!leaseVerifyKeyPattern.test(value)) {
    context.addIssue({ code: 'custom', message: 'must be <keyId>:<raw Ed25519 public key, 43 base64url characters>' });
    return z.NEVER;
  }
  const key = parseLeaseVerifyKey(value);
  if (Object.hasOwn(pinnedLeaseKeys, key.keyId) && pinnedLeaseKeys[key.keyId] !== key.publicKey) {
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

/** The keys a lease verifies against: those pinned in the image, plus the configured one. */
export function trustedLeaseKeys(configured: ConfiguredLeaseKey | undefined): {
  trust: LeaseTrustStore;
  leaseTrust: 'pinned' | 'configured';
} {
  return {
    trust: leaseTrustStore(
      configured ? { ...pinnedLeaseKeys, [configured.keyId]: configured.publicKey } : pinnedLeaseKeys,
    ),
    leaseTrust: configured ? 'configured' : 'pinned',
  };
}
