import { randomBytes } from 'node:crypto';
import type { DevicePublicJwk, SignedDeviceCertificate } from '@gw/contracts';
import {
  ed25519PrivateKey,
  ed25519PublicKeyOf,
  generateEd25519KeyPair,
  parseConfiguredKey,
  signDeviceCertificate,
  trustedKeysOf,
  type TrustedKeys,
  isoInstant,
} from '@gw/platform';

/** Billing's device-certificate authority: a test CA key per simulator, the certificates' lifetime, revoked developers. */
export interface DeviceCertificateAuthority {
  readonly keyId: string;
  /** Raw Ed25519 public key, base64url (43 characters). */
  readonly publicKey: string;
  /** `<keyId>:<publicKey>`, the form the gateway's `GW_DEVICE_CA_KEY` takes. */
  readonly verifyKey: string;
  /** Only this simulator's CA key: billing renews only what it signed. */
  readonly trust: TrustedKeys;
  /** Developers (lowercase addresses) whose certificates billing no longer renews. */
  readonly revokedSubjects: Set<string>;
  /** Proofs already spent at `/v1/cert/renew`, by replay key, with when they may be forgotten. */
  readonly spentProofs: Map<string, number>;
  issue(subject: string, deviceKey: DevicePublicJwk, nowMs: number): SignedDeviceCertificate;
}

export function createDeviceCertificateAuthority(
  deploymentId: string,
  keyId: string,
  lifetimeMs: number,
): DeviceCertificateAuthority {
  const rawPrivateKey = generateEd25519KeyPair().privateKey;
  const privateKey = ed25519PrivateKey(rawPrivateKey);
  const publicKey = ed25519PublicKeyOf(rawPrivateKey);
  const verifyKey = `${keyId}:${publicKey}`;
  parseConfiguredKey(verifyKey);
  return {
    keyId,
    publicKey,
    verifyKey,
    trust: trustedKeysOf({ [keyId]: publicKey }),
    revokedSubjects: new Set(),
    spentProofs: new Map(),
    issue(subject, deviceKey, nowMs) {
      const payload = {
        v: 1 as const,
        serial: randomBytes(16).toString('base64url'),
        deploymentId,
        subject,
        deviceKey,
        issuedAt: isoInstant(nowMs),
        expiresAt: isoInstant(nowMs + lifetimeMs),
      };
      return signDeviceCertificate(payload, privateKey, keyId);
    },
  };
}
