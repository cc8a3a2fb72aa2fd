import { z } from 'zod';

/**
 * Device identity of the connect CLI: a device certificate billing signs for a key the device holds, and the
 * purpose-bound proof of possession the device signs with that key. The gateway's `/connect/key/heartbeat` and
 * `/connect/machine` and billing's `/v1/cert/renew` take exactly these shapes; the testkit's simulated device and
 * billing simulator speak them too. The specification leaves the shapes "not shown": these are ours.
 */

const base64url = /^[A-Za-z0-9_-]+$/;
const instant = z.string().datetime({ offset: true });
const coordinate = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'a 32-byte coordinate, unpadded base64url');
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex SHA-256');

/** The device's public key as a JWK: Ed25519 (`OKP`) or ECDSA P-256 (`EC`). Private parts are refused by shape. */
export const devicePublicJwk = z.discriminatedUnion('kty', [
  z.strictObject({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: coordinate }),
  z.strictObject({ kty: z.literal('EC'), crv: z.literal('P-256'), x: coordinate, y: coordinate }),
]);
export type DevicePublicJwk = z.infer<typeof devicePublicJwk>;

/** What a device certificate asserts: this deployment's developer `subject` holds the private half of `deviceKey`. */
export const deviceCertificatePayload = z.strictObject({
  v: z.literal(1),
  serial: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
  deploymentId: z.string().min(1).max(128).describe('A certificate for another deployment does not verify'),
  subject: z
    .string()
    .min(1)
    .max(320)
    .describe('The developer (e-mail address, compared without case) the device belongs to'),
  deviceKey: devicePublicJwk,
  issuedAt: instant,
  expiresAt: instant.describe('After this instant the certificate no longer verifies; renew it at billing before then'),
});
export type DeviceCertificatePayload = z.infer<typeof deviceCertificatePayload>;

/** The certificate as it travels: the payload's JSON bytes in base64url and billing's detached Ed25519 signature. */
export const signedDeviceCertificate = z.strictObject({
  payload: z.string().min(1).max(4096).regex(base64url, 'base64url'),
  signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'an unpadded base64url Ed25519 signature'),
  keyId: z
    .string()
    .min(1)
    .max(64)
    .describe('Which billing CA key signed it; the verifier looks it up among the keys it trusts'),
});
export type SignedDeviceCertificate = z.infer<typeof signedDeviceCertificate>;

/** Domain separation: a certificate signature can never be replayed as a lease or any other signed message. */
export const deviceCertificateSigningContext = 'gw-device-certificate.v1.';
export const deviceProofSigningContext = 'gw-device-proof.v1.';

/** What a proof may be for; a proof made for one purpose is refused for every other. */
export const deviceProofPurposes = ['key-heartbeat', 'machine-report', 'cert-renew'] as const;
export const deviceProofPurpose = z.enum(deviceProofPurposes);
export type DeviceProofPurpose = z.infer<typeof deviceProofPurpose>;

/** A fresh, single-use statement signed by the device key: for this purpose, this certificate, this client key, now. */
export const deviceProofPayload = z.strictObject({
  v: z.literal(1),
  purpose: deviceProofPurpose,
  certificateSha256: sha256Hex.describe(
    'SHA-256 of the certificate’s `payload.signature`: the proof goes with that certificate only',
  ),
  keySha256: sha256Hex
    .optional()
    .describe('SHA-256 of the client key sent in `x-gw-api-key`; required by the gateway, absent at billing'),
  issuedAt: z
    .number()
    .int()
    .nonnegative()
    .describe('Milliseconds since the epoch; a proof outside the freshness window is refused'),
  nonce: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, '16–64 base64url characters'),
});
export type DeviceProofPayload = z.infer<typeof deviceProofPayload>;

/** The proof as it travels. Ed25519 signatures are 64 bytes, P-256 (IEEE P1363 `r‖s`) 64 bytes too: 86 characters. */
export const deviceProof = z.strictObject({
  payload: z.string().min(1).max(2048).regex(base64url, 'base64url'),
  signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'an unpadded base64url 64-byte signature'),
});
export type DeviceProof = z.infer<typeof deviceProof>;

/** `POST /connect/key/heartbeat`. */
export const deviceHeartbeatBody = z.strictObject({ certificate: signedDeviceCertificate, proof: deviceProof });
/** `POST /connect/machine`: the machine UUID travels beside the proof; the gateway keeps only its SHA-256. */
export const deviceMachineBody = z.strictObject({
  certificate: signedDeviceCertificate,
  proof: deviceProof,
  machineUuid: z.uuid(),
});
/** Billing's `POST /v1/cert/renew`: the live certificate and a `cert-renew` proof from its bound key. */
export const certRenewBody = z.strictObject({ certificate: signedDeviceCertificate, proof: deviceProof });
export const certRenewResponse = z.strictObject({ certificate: signedDeviceCertificate });
