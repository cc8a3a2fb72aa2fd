import {
  configuredKeySetting,
  pinnedPlusConfigured,
  type ConfiguredKey,
  type TrustedKeys,
} from '../signing/pinned-keys.js';

/**
 * Billing's device-certificate CA public keys, pinned in the image like the lease keys: a certificate verifies only
 * against these, plus the one key an operator may add with `GW_DEVICE_CA_KEY`. Billing's production CA key ships here
 * before billing signs a certificate with it; until then the map is empty and a deployment that verifies device
 * certificates configures the key.
 */
export const pinnedDeviceCaKeys: Readonly<Record<string, string>> = Object.freeze({});

export type ConfiguredDeviceCaKey = ConfiguredKey;

/** `GW_DEVICE_CA_KEY`: `<keyId>:<raw Ed25519 public key>`, the form `GW_LEASE_VERIFY_KEY` takes. */
export const deviceCaKeySetting = configuredKeySetting(pinnedDeviceCaKeys);

/** The CA keys a device certificate verifies against: those pinned in the image, plus the configured one. */
export function trustedDeviceCaKeys(configured: ConfiguredDeviceCaKey | undefined): TrustedKeys {
  return pinnedPlusConfigured(pinnedDeviceCaKeys, configured);
}
