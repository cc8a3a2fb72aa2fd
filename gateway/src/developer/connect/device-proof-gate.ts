import type { FastifyRequest } from 'fastify';
import type { DeviceCertificatePayload, DeviceProofPurpose } from '@gw/contracts';
import {
  deviceProofWindow,
  sha256Hex,
  verifyDeviceCertificate,
  verifyDeviceProof,
  type Clock,
  type Coord,
  type TrustedKeys,
} from '@gw/platform';
import { identityOf } from '../../chain/identity/identity-of.js';
import { connectErrors } from './connect-errors.js';

export interface DeviceProofGateOptions {
  /** Billing's device-certificate CA keys: pinned in the image plus `GW_DEVICE_CA_KEY`. */
  trust: TrustedKeys;
  /** The deployment a certificate must be issued to; unset, the gate refuses every request with 503. */
  deploymentId: string | undefined;
  coord: Coord;
  clock: Clock;
}

export interface AdmittedDevice {
  certificate: DeviceCertificatePayload;
  certificateSha256: string;
}

// A spent proof is remembered for as long as its timestamp could still pass the freshness check, and a little more.
const replayTtlMs = deviceProofWindow.pastMs + deviceProofWindow.futureMs + 60_000;

/**
 * Proof of possession for the connect routes a bearer alone may not reach (the key heartbeat, the machine report):
 * the current client key in `x-gw-api-key`, a device certificate billing signed for this deployment and this caller,
 * and a fresh proof signed by the certificate's bound key for this purpose, this certificate and this client key.
 * Everything is checked before anything is written; the proof is spent last, once, in the shared replay store, so a
 * replica elsewhere refuses it too.
 */
export class DeviceProofGate {
  constructor(private readonly options: DeviceProofGateOptions) {}

  async admit(
    request: FastifyRequest,
    body: { certificate: unknown; proof: unknown },
    purpose: DeviceProofPurpose,
  ): Promise<AdmittedDevice> {
    const { trust, deploymentId, coord, clock } = this.options;
    if (deploymentId === undefined || trust.size === 0) throw connectErrors.deviceIdentityUnavailable();
    const rawKey = request.headers['x-gw-api-key'];
    if (typeof rawKey !== 'string' || rawKey.trim() === '') throw connectErrors.apiKeyHeaderRequired();
    const identity = identityOf(request);
    const now = clock.now();
    const certificate = verifyDeviceCertificate(body.certificate, trust, deploymentId, now);
    if (!certificate.ok) throw connectErrors.invalidDeviceCertificate(certificate.reason);
    if (identity.user === null || certificate.payload.subject.toLowerCase() !== identity.user.toLowerCase())
      throw connectErrors.deviceCertificateMismatch();
    const proof = verifyDeviceProof(body.proof, {
      certificate: certificate.payload,
      certificateSha256: certificate.sha256,
      purpose,
      keySha256: sha256Hex(rawKey.trim()),
      nowMs: now,
    });
    if (!proof.ok)
      throw proof.reason === 'stale' || proof.reason === 'future'
        ? connectErrors.staleProof(proof.reason)
        : connectErrors.invalidProof(proof.reason);
    let fresh: boolean;
    try {
      fresh = await coord.setIfAbsent(`device-proof:${proof.replayKey}`, '1', replayTtlMs);
    } catch {
      throw connectErrors.proofStoreUnavailable();
    }
    if (!fresh) throw connectErrors.proofReplayed();
    return { certificate: certificate.payload, certificateSha256: certificate.sha256 };
  }
}
