import type { KeyObject } from 'node:crypto';
import {
  deviceCertificatePayload,
  deviceCertificateSigningContext,
  signedDeviceCertificate,
  type DeviceCertificatePayload,
  type SignedDeviceCertificate,
} from '@gw/contracts';
import { sha256Hex } from '../crypto.js';
import { signDetached, verifyDetached, type SignedKind } from '../signing/detached-signature.js';
import type { TrustedKeys } from '../signing/pinned-keys.js';

const certificateKind: SignedKind<DeviceCertificatePayload> = {
  envelope: signedDeviceCertificate,
  payload: deviceCertificatePayload,
  context: deviceCertificateSigningContext,
};

/** Sign a device certificate (billing's side; the testkit simulator uses it, so signer and verifier cannot drift). */
export function signDeviceCertificate(
  payload: DeviceCertificatePayload,
  caPrivateKey: KeyObject,
  keyId: string,
): SignedDeviceCertificate {
  return signDetached(certificateKind, payload, caPrivateKey, keyId);
}

/** What a proof names its certificate by, and what the gateway stores instead of the certificate. */
export function deviceCertificateSha256(certificate: SignedDeviceCertificate): string {
  return sha256Hex(`${certificate.payload}.${certificate.signature}`);
}

export type DeviceCertificateFailure =
  'malformed' | 'unknown_key' | 'bad_signature' | 'wrong_deployment' | 'expired' | 'not_yet_valid';
export type DeviceCertificateCheck =
  { ok: true; payload: DeviceCertificatePayload; sha256: string } | { ok: false; reason: DeviceCertificateFailure };

/**
 * Verify a device certificate as received: a trusted CA key id, a signature over the exact payload bytes, a payload of
 * the known shape, issued to this deployment and valid at `nowMs`.
 */
export function verifyDeviceCertificate(
  value: unknown,
  trust: TrustedKeys,
  deploymentId: string,
  nowMs: number,
): DeviceCertificateCheck {
  const check = verifyDetached(certificateKind, value, trust);
  if (!check.ok) return check;
  const payload = check.payload;
  if (payload.deploymentId !== deploymentId) return { ok: false, reason: 'wrong_deployment' };
  if (Date.parse(payload.issuedAt) > nowMs) return { ok: false, reason: 'not_yet_valid' };
  if (Date.parse(payload.expiresAt) <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, payload, sha256: deviceCertificateSha256(check.envelope) };
}
