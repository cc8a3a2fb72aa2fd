import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ed25519PrivateKey, generateEd25519KeyPair, sha256Hex } from '../crypto.js';
import { trustedKeysOf } from '../signing/pinned-keys.js';
import { deviceCaKeySetting, trustedDeviceCaKeys } from './device-ca-keys.js';
import { deviceCertificateSha256, signDeviceCertificate, verifyDeviceCertificate } from './device-certificate.js';
import { devicePublicJwkOf } from './device-key.js';
import { deviceProofWindow, signDeviceProof, verifyDeviceProof } from './device-proof.js';

const now = Date.UTC(2026, 10, 27, 12);
const ca = generateEd25519KeyPair();
const trust = trustedKeysOf({ 'ca-1': ca.publicKey });

function certify(
  deviceKey: ReturnType<typeof devicePublicJwkOf>,
  change: { deploymentId?: string; issuedAt?: number; expiresAt?: number } = {},
) {
  return signDeviceCertificate(
    {
      v: 1,
      serial: 'serial-0123456789abcdef',
      deploymentId: change.deploymentId ?? 'dep_1',
      subject: 'ada@example.com',
      deviceKey,
      issuedAt: new Date(change.issuedAt ?? now - 1000).toISOString(),
      expiresAt: new Date(change.expiresAt ?? now + 60_000).toISOString(),
    },
    ed25519PrivateKey(ca.privateKey),
    'ca-1',
  );
}

describe.each([
  ['Ed25519', () => generateKeyPairSync('ed25519').privateKey],
  ['P-256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey],
] as const)('device certificates and proofs with a %s device key', (_name, generate) => {
  const deviceKey = generate();
  const certificate = certify(devicePublicJwkOf(deviceKey));
  const verified = verifyDeviceCertificate(certificate, trust, 'dep_1', now);
  if (!verified.ok) throw new Error(`the fixture certificate does not verify: ${verified.reason}`);
  const expectation = {
    certificate: verified.payload,
    certificateSha256: verified.sha256,
    purpose: 'key-heartbeat' as const,
    keySha256: sha256Hex('ark_key'),
    nowMs: now,
  };
  const proof = (
    change: { purpose?: 'key-heartbeat' | 'machine-report'; issuedAt?: number; keySha256?: string } = {},
    key = deviceKey,
  ) =>
    signDeviceProof(
      {
        v: 1,
        purpose: change.purpose ?? 'key-heartbeat',
        certificateSha256: deviceCertificateSha256(certificate),
        keySha256: change.keySha256 ?? sha256Hex('ark_key'),
        issuedAt: change.issuedAt ?? now,
        nonce: 'nonce-0123456789ab',
      },
      key,
    );

  it('verifies a certificate and a proof, and names the proof by its signed bytes', () => {
    const check = verifyDeviceProof(proof(), expectation);
    expect(check).toMatchObject({ ok: true, payload: { purpose: 'key-heartbeat' } });
    expect(check.ok && check.replayKey).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses each way a certificate can be wrong', () => {
    expect(
      verifyDeviceCertificate({ ...certificate, payload: certificate.payload.slice(1) }, trust, 'dep_1', now),
    ).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyDeviceCertificate({ ...certificate, keyId: 'ca-2' }, trust, 'dep_1', now)).toEqual({
      ok: false,
      reason: 'unknown_key',
    });
    expect(verifyDeviceCertificate({ ...certificate, signature: 'short' }, trust, 'dep_1', now)).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifyDeviceCertificate('not a certificate', trust, 'dep_1', now)).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifyDeviceCertificate(certificate, trust, 'dep_2', now)).toEqual({
      ok: false,
      reason: 'wrong_deployment',
    });
    expect(verifyDeviceCertificate(certificate, trust, 'dep_1', now + 60_000)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(
      verifyDeviceCertificate(certify(devicePublicJwkOf(deviceKey), { issuedAt: now + 1000 }), trust, 'dep_1', now),
    ).toEqual({ ok: false, reason: 'not_yet_valid' });
  });

  it('refuses each way a proof can be wrong, at the edges of its window', () => {
    expect(verifyDeviceProof(proof({}, generate()), expectation)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyDeviceProof(proof({ purpose: 'machine-report' }), expectation)).toEqual({
      ok: false,
      reason: 'wrong_purpose',
    });
    expect(verifyDeviceProof(proof({ keySha256: sha256Hex('ark_other') }), expectation)).toEqual({
      ok: false,
      reason: 'wrong_key',
    });
    expect(verifyDeviceProof(proof(), { ...expectation, certificateSha256: sha256Hex('another') })).toEqual({
      ok: false,
      reason: 'wrong_certificate',
    });
    expect(verifyDeviceProof({ ...proof(), payload: 'e30' }, expectation)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verifyDeviceProof({ payload: 'x' }, expectation)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyDeviceProof(proof({ issuedAt: now - deviceProofWindow.pastMs }), expectation).ok).toBe(true);
    expect(verifyDeviceProof(proof({ issuedAt: now - deviceProofWindow.pastMs - 1 }), expectation)).toEqual({
      ok: false,
      reason: 'stale',
    });
    expect(verifyDeviceProof(proof({ issuedAt: now + deviceProofWindow.futureMs }), expectation).ok).toBe(true);
    expect(verifyDeviceProof(proof({ issuedAt: now + deviceProofWindow.futureMs + 1 }), expectation)).toEqual({
      ok: false,
      reason: 'future',
    });
  });
});

describe('the device CA keys a gateway trusts', () => {
  it('takes <keyId>:<raw Ed25519 key> besides the pinned ones, and refuses anything else', () => {
    const key = generateEd25519KeyPair();
    const configured = deviceCaKeySetting.parse(`billing-ca:${key.publicKey}`);
    expect(trustedDeviceCaKeys(configured).has('billing-ca')).toBe(true);
    expect(trustedDeviceCaKeys(undefined).has('billing-ca')).toBe(false);
    expect(deviceCaKeySetting.safeParse('no-colon').success).toBe(false);
    expect(deviceCaKeySetting.safeParse(`ca:${key.publicKey.slice(1)}`).success).toBe(false);
  });
});
