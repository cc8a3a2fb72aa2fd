import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import type { DeliveredCheckPayload, SignedDeliveredCheck } from '@gw/contracts';
import { signDeliveredCheck } from '@gw/platform';

/** The vendor's side of the policy-push lane, with a key generated for the test (never the pinned one). */
export interface PolicyPushSigner {
  keyId: string;
  /** Raw Ed25519 public key, base64url: what a test hands the evidence service as `deliveredCheckKeys`. */
  publicKey: string;
  /** `{[keyId]: publicKey}`, ready for `buildApp({deliveredCheckKeys})`. */
  trust: Readonly<Record<string, string>>;
  /** A well-formed monitor-only check, with `overrides` applied (any field, even one the service must refuse). */
  check(
    overrides?: Partial<Record<keyof DeliveredCheckPayload, unknown>> & Record<string, unknown>,
  ): Record<string, unknown>;
  /** Sign whatever payload is given, as the vendor would. */
  sign(payload: unknown): SignedDeliveredCheck;
}

export function createPolicyPushSigner(keyId = 'test-policy-push-1'): PolicyPushSigner {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'jwk' }).x as string;
  const signingKey = createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' }));
  return {
    keyId,
    publicKey: raw,
    trust: { [keyId]: raw },
    check: (overrides = {}) => ({
      v: 1,
      id: 'vendor-macos-gatekeeper',
      revision: 1,
      name: 'macos-gatekeeper',
      platform: 'darwin',
      critical: false,
      mode: 'monitor',
      description: 'Gatekeeper allows only identified developers’ applications.',
      resolution:
        'System Settings → Privacy & Security → allow applications from the App Store and identified developers.',
      query: 'SELECT 1 FROM gatekeeper WHERE assessments_enabled = 1;',
      issuedAt: '2026-11-26T12:00:00.000Z',
      ...overrides,
    }),
    sign: (payload) => signDeliveredCheck(payload, signingKey, keyId),
  };
}
