import type { KeyObject } from 'node:crypto';
import {
  deviceProof,
  deviceProofPayload,
  deviceProofSigningContext,
  type DeviceCertificatePayload,
  type DeviceProof,
  type DeviceProofPayload,
  type DeviceProofPurpose,
} from '@gw/contracts';
import { sha256Hex } from '../crypto.js';
import { deviceSign, deviceVerify } from './device-key.js';
import { decodeSignedPayload } from '../signing/detached-signature.js';

/**
 * How far a proof's `issuedAt` may lie behind the verifier's clock, and ahead of it (clock skew). The replay store
 * keeps a used proof at least as long as it could still pass this check.
 */
export const deviceProofWindow = { pastMs: 5 * 60_000, futureMs: 60_000 } as const;

/** Sign a proof with the device's bound key (the connect CLI's side; the testkit's simulated device uses it). */
export function signDeviceProof(payload: DeviceProofPayload, devicePrivateKey: KeyObject): DeviceProof {
  const encoded = Buffer.from(JSON.stringify(deviceProofPayload.parse(payload))).toString('base64url');
  return { payload: encoded, signature: deviceSign(devicePrivateKey, deviceProofSigningContext + encoded) };
}

export type DeviceProofFailure =
  'malformed' | 'bad_signature' | 'wrong_purpose' | 'wrong_certificate' | 'wrong_key' | 'stale' | 'future';
export type DeviceProofCheck =
  { ok: true; payload: DeviceProofPayload; replayKey: string } | { ok: false; reason: DeviceProofFailure };

export interface DeviceProofExpectation {
  certificate: DeviceCertificatePayload;
  certificateSha256: string;
  purpose: DeviceProofPurpose;
  /** SHA-256 of the client key the request carries; when set the proof must name exactly it. */
  keySha256?: string;
  nowMs: number;
}

/**
 * Verify a proof of possession against its certificate's bound key, then that it was made for this purpose, this
 * certificate, this client key and now. Single use is the caller's: `replayKey` names the proof in a replay store.
 */
export function verifyDeviceProof(value: unknown, expected: DeviceProofExpectation): DeviceProofCheck {
  const envelope = deviceProof.safeParse(value);
  if (!envelope.success) return { ok: false, reason: 'malformed' };
  if (
    !deviceVerify(
      expected.certificate.deviceKey,
      deviceProofSigningContext + envelope.data.payload,
      envelope.data.signature,
    )
  )
    return { ok: false, reason: 'bad_signature' };
  const proof = decodeSignedPayload(envelope.data.payload, deviceProofPayload);
  if (proof === null) return { ok: false, reason: 'malformed' };
  if (proof.purpose !== expected.purpose) return { ok: false, reason: 'wrong_purpose' };
  if (proof.certificateSha256 !== expected.certificateSha256) return { ok: false, reason: 'wrong_certificate' };
  if (expected.keySha256 !== undefined && proof.keySha256 !== expected.keySha256)
    return { ok: false, reason: 'wrong_key' };
  if (proof.issuedAt < expected.nowMs - deviceProofWindow.pastMs) return { ok: false, reason: 'stale' };
  if (proof.issuedAt > expected.nowMs + deviceProofWindow.futureMs) return { ok: false, reason: 'future' };
  // The signed bytes, not the nonce alone: two proofs differing anywhere are two proofs.
  return { ok: true, payload: proof, replayKey: sha256Hex(envelope.data.payload) };
}
