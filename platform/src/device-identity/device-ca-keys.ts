import { z } from 'zod';
import { ed25519PublicKey } from '../crypto.js';
import { leaseTrustStore, type LeaseTrustStore } from '../entitlement/lease-signature.js';
import { leaseVerifyKeyPattern, parseLeaseVerifyKey } from '../entitlement/pinned-lease-keys.js';

/**
 * Billing's device-certificate CA public keys, pinned in the image like the lease keys: a certificate verifies only
 * against these, plus the one key an operator may add with `GW_DEVICE_CA_KEY`. Billing's production CA key ships here
 * before billing signs a certificate with it; until then the map is empty and a deployment that verifies device
 * certificates configures the key.
 */
export const pinnedDeviceCaKeys: Readonly<Record<string, string>> = Object.freeze({});

export interface ConfiguredDeviceCaKey {
  keyId: string;
  publicKey: string;
}

/** `GW_DEVICE_CA_KEY`: `<keyId>:<raw Ed25519 public key>`, the form `GW_LEASE_VERIFY_KEY` takes. */
export const deviceCaKeySetting = z.string().transform((value, context): ConfiguredDeviceCaKey => {
  if (!leaseVerifyKeyPattern.test(value)) {
    context.addIssue({ code: 'custom', message: 'must be <keyId>:<raw Ed25519 public key, 43 base64url characters>' });
    return z.NEVER;
  }
  const key = parseLeaseVerifyKey(value);
  if (Object.hasOwn(pinnedDeviceCaKeys, key.keyId) && pinnedDeviceCaKeys[key.keyId] !== key.publicKey) {
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

/** The CA keys a device certificate verifies against: those pinned in the image, plus the configured one. */
export function trustedDeviceCaKeys(configured: ConfiguredDeviceCaKey | undefined): LeaseTrustStore {
  return leaseTrustStore(
    configured ? { ...pinnedDeviceCaKeys, [configured.keyId]: configured.publicKey } : pinnedDeviceCaKeys,
  );
}
