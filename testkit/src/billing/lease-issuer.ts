import type { SignedLease } from '@gw/contracts';
import {
  ed25519PrivateKey,
  ed25519PublicKeyOf,
  generateEd25519KeyPair,
  parseLeaseVerifyKey,
  signLease,
  isoInstant,
} from '@gw/platform';
import type { BillingAccount } from './billing-account.js';

export interface LeaseIssuer {
  readonly keyId: string;
  /** Raw Ed25519 public key, base64url (43 characters). */
  readonly publicKey: string;
  /** `<keyId>:<publicKey>`, the form `GW_LEASE_VERIFY_KEY` takes. */
  readonly verifyKey: string;
  /** A lease for the account as it is now, valid from `nowMs` for the account's lease TTL. */
  issue(nowMs: number): SignedLease;
}

/** A fresh signing key per simulator: a lease from one never verifies against another's key. */
export function createLeaseIssuer(deploymentId: string, keyId: string, account: BillingAccount): LeaseIssuer {
  const rawPrivateKey = generateEd25519KeyPair().privateKey;
  const privateKey = ed25519PrivateKey(rawPrivateKey);
  const publicKey = ed25519PublicKeyOf(rawPrivateKey);
  const verifyKey = `${keyId}:${publicKey}`;
  // Fails early on a key id the gateway's GW_LEASE_VERIFY_KEY could not carry.
  parseLeaseVerifyKey(verifyKey);
  return {
    keyId,
    publicKey,
    verifyKey,
    issue(nowMs) {
      const { status, optimizerEnabled, leaseTtlMs } = account.state;
      const payload = {
        v: 1 as const,
        deploymentId,
        status,
        optimizerEnabled,
        issuedAt: isoInstant(nowMs),
        expiresAt: isoInstant(nowMs + leaseTtlMs),
      };
      return signLease(payload, privateKey, keyId);
    },
  };
}
