import { generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import {
  certRenewResponse,
  type DeviceProof,
  type DeviceProofPurpose,
  type DevicePublicJwk,
  type SignedDeviceCertificate,
} from '@gw/contracts';
import { deviceCertificateSha256, devicePublicJwkOf, sha256Hex, signDeviceProof } from '@gw/platform';

export type DeviceKeyAlgorithm = 'Ed25519' | 'P-256';

export interface ProofOptions {
  /** The client key the proof goes with (`x-gw-api-key`); omitted for billing, which takes no client key. */
  apiKey?: string;
  /** When the device says it signed (default: the device's clock). */
  issuedAt?: number;
  /** Sign for another certificate than the device's own (to test that the gateway refuses it). */
  certificate?: SignedDeviceCertificate;
}

/**
 * The connect CLI's device identity, simulated: a key pair that never leaves the object, the device certificate billing
 * signed for its public half, a stable machine UUID, and proofs of possession signed on demand.
 */
export class SimulatedDevice {
  readonly publicJwk: DevicePublicJwk;
  readonly machineUuid = randomUUID();
  #certificate: SignedDeviceCertificate | null = null;

  private constructor(
    private readonly privateKey: KeyObject,
    private readonly now: () => number,
  ) {
    this.publicJwk = devicePublicJwkOf(privateKey);
  }

  static create(options: { algorithm?: DeviceKeyAlgorithm; now?: () => number } = {}): SimulatedDevice {
    const { privateKey } =
      options.algorithm === 'P-256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('ed25519');
    return new SimulatedDevice(privateKey, options.now ?? Date.now);
  }

  get certificate(): SignedDeviceCertificate {
    if (!this.#certificate) throw new Error('the device holds no certificate yet: adopt one, then renew it at billing');
    return this.#certificate;
  }

  /** Take the certificate the sign-in handed out (the billing simulator's `issueDeviceCertificate`). */
  adoptCertificate(certificate: SignedDeviceCertificate): void {
    this.#certificate = certificate;
  }

  /** Roll the certificate forward at billing's `POST /v1/cert/renew`; the answer's status and body either way. */
  async renewCertificate(billingUrl: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(new URL('/v1/cert/renew', billingUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ certificate: this.certificate, proof: this.proof('cert-renew') }),
    });
    const body: unknown = await response.json();
    if (response.status === 200) this.#certificate = certRenewResponse.parse(body).certificate;
    return { status: response.status, body };
  }

  /** A fresh proof of possession for `purpose`, signed by the device key. */
  proof(purpose: DeviceProofPurpose, options: ProofOptions = {}): DeviceProof {
    return signDeviceProof(
      {
        v: 1,
        purpose,
        certificateSha256: deviceCertificateSha256(options.certificate ?? this.certificate),
        ...(options.apiKey === undefined ? {} : { keySha256: sha256Hex(options.apiKey) }),
        issuedAt: options.issuedAt ?? this.now(),
        nonce: randomBytes(16).toString('base64url'),
      },
      this.privateKey,
    );
  }

  /** The body of `POST /connect/key/heartbeat`. */
  heartbeatBody(
    apiKey: string,
    options: Omit<ProofOptions, 'apiKey'> = {},
  ): { certificate: SignedDeviceCertificate; proof: DeviceProof } {
    return { certificate: this.certificate, proof: this.proof('key-heartbeat', { ...options, apiKey }) };
  }

  /** The body of `POST /connect/machine`: the machine UUID beside the proof. */
  machineBody(
    apiKey: string,
    options: Omit<ProofOptions, 'apiKey'> = {},
  ): { certificate: SignedDeviceCertificate; proof: DeviceProof; machineUuid: string } {
    return {
      certificate: this.certificate,
      proof: this.proof('machine-report', { ...options, apiKey }),
      machineUuid: this.machineUuid,
    };
  }
}
