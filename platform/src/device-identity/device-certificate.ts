import type { KeyObject } from 'node:crypto';
import {
  deviceCertificatePayload,
  deviceCertificateSigningContext,
  signedDeviceCertificate,
  type DeviceCertificatePayload,
  type SignedDeviceCertificate,
} from '@gw/contracts';
import { ed25519Sign, ed25519Verify, sha256Hex } from '../crypto.js';
import type { LeaseTrustStore } from '../entitlement/lease-signature.js';

/** Sign a device certificate (billing's side; the testkit simulator uses it, so signer and verifier cannot drift). */
export function signDeviceCertificate(
  payload: DeviceCertificatePayload,
  caPrivateKey: KeyObject,
  keyId: string,
): SignedDeviceCertificate {
  const encoded = Buffer.from(JSON.stringify(deviceCertificatePayload.parse(payload))).toString('base64url');
  return { payload: encoded, signature: ed25519Sign(caPrivateKey, deviceCertificateSigningContext + encoded), keyId };
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
  trust: LeaseTrustStore,
  deploymentId: string,
  nowMs: number,
): DeviceCertificateCheck {
  const envelope = signedDeviceCertificate.safeParse(value);
  if (!envelope.success) return { ok: false, reason: 'malformed' };
  const key = trust.get(envelope.data.keyId);
  if (!key) return { ok: false, reason: 'unknown_key' };
  if (!ed25519Verify(key, deviceCertificateSigningContext + envelope.data.payload, envelope.data.signature))
    return { ok: false, reason: 'bad_signature' };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(envelope.data.payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const payload = deviceCertificatePayload.safeParse(decoded);
  if (!payload.success) return { ok: false, reason: 'malformed' };
  if (payload.data.deploymentId !== deploymentId) return { ok: false, reason: 'wrong_deployment' };
  if (Date.parse(payload.data.issuedAt) > nowMs) return { ok: false, reason: 'not_yet_valid' };
  if (Date.parse(payload.data.expiresAt) <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, payload: payload.data, sha256: deviceCertificateSha256(envelope.data) };
}
