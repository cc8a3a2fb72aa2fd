import { z } from 'zod';
import { configuredKeySetting, pinnedPlusConfigured, type ConfiguredKey } from '../signing/pinned-keys.js';
import type { LeaseTrustStore } from './lease-signature.js';
import { pinnedLeaseKeys } from './pinned-lease-keys.js';

export type ConfiguredLeaseKey = ConfiguredKey;

/** A deployment id as billing knows it; the gateway and the optimizer take the same value. */
export const deploymentIdSetting = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,128}$/, 'must be 1–128 letters, digits, dots, dashes or underscores');

/** `GW_LEASE_VERIFY_KEY` for both services that verify leases: `<keyId>:<raw Ed25519 public key>`. */
export const leaseVerifyKeySetting = configuredKeySetting(pinnedLeaseKeys);

/** The keys a lease verifies against: those pinned in the image, plus the configured one. */
export function trustedLeaseKeys(configured: ConfiguredLeaseKey | undefined): {
  trust: LeaseTrustStore;
  leaseTrust: 'pinned' | 'configured';
} {
  return { trust: pinnedPlusConfigured(pinnedLeaseKeys, configured), leaseTrust: configured ? 'configured' : 'pinned' };
}
