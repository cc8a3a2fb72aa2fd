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
export const leaseVerifyKeyPattern = /^([A-Za-z0-9._-]{1,64}):([A-Za-z0-9_-]{43})$/;

export function parseLeaseVerifyKey(value: string): { keyId: string; publicKey: string } {
  const match = leaseVerifyKeyPattern.exec(value);
  if (!match?.[1] || !match[2]) throw new Error('a lease verify key is <keyId>:<43 base64url characters>');
  return { keyId: match[1], publicKey: match[2] };
}
