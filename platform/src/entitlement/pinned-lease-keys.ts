import { configuredKeyPattern, parseConfiguredKey } from '../signing/pinned-keys.js';

/**
 * The billing service's lease-signing public keys, pinned in the image: a lease verifies only against
 * these, plus the one key an operator may add with `GW_LEASE_VERIFY_KEY` (reported as `leaseTrust: configured` in
 * `/admin/health` and in every meter report). Key ids let billing rotate: a new key ships here before billing signs
 * with it.
 */
export const pinnedLeaseKeys: Readonly<Record<string, string>> = Object.freeze({
  'gw-billing-2026-1': 'potgrRgtPmJ6LN_uOGjr_tXP9HeSEQalv16O4NOzNt4',
});

/** `<keyId>:<raw Ed25519 public key, 43 base64url characters>`, the form `GW_LEASE_VERIFY_KEY` takes. */
export const leaseVerifyKeyPattern = configuredKeyPattern;
export const parseLeaseVerifyKey = parseConfiguredKey;
