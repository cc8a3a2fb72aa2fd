import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { KubeObject } from '../kube/kube-api.js';
import { objectName, ownedMetadata } from './stack-names.js';

/** Randomness is injected so tests can tell a regenerated secret from a kept one. */
export interface SecretMaterial {
  token(): string;
  hexKey(): string;
  ed25519PrivateKeyPem(): string;
}

export const cryptoMaterial: SecretMaterial = {
  token: () => randomBytes(32).toString('base64url'),
  hexKey: () => randomBytes(32).toString('hex'),
  ed25519PrivateKeyPem: () =>
    generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};

/** Name and key of each generated secret, as the Deployments reference them. */
export const generatedSecrets = {
  adminToken: { suffix: 'admin-token', key: 'token' },
  optimizerToken: { suffix: 'optimizer-token', key: 'token' },
  keystoreKey: { suffix: 'keystore-key', key: 'key' },
  contentKey: { suffix: 'content-key', key: 'key' },
  signingKey: { suffix: 'signing-key', key: 'privateKey' },
} as const;

export type GeneratedSecret = keyof typeof generatedSecrets;

export function generatedSecretName(gateway: KubeObject, secret: GeneratedSecret): string {
  return objectName(gateway, generatedSecrets[secret].suffix);
}

/**
 * The Secrets a Gateway needs and nobody supplies: created once (create-only, never applied), so a restart of the
 * operator never rotates a keystore key under encrypted data.
 */
export function buildGeneratedSecrets(gateway: KubeObject, material: SecretMaterial = cryptoMaterial): KubeObject[] {
  const values: Record<GeneratedSecret, string> = {
    adminToken: material.token(),
    optimizerToken: material.token(),
    keystoreKey: material.hexKey(),
    contentKey: material.hexKey(),
    signingKey: material.ed25519PrivateKeyPem(),
  };
  return (Object.keys(generatedSecrets) as GeneratedSecret[]).map((secret) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: ownedMetadata(gateway, generatedSecretName(gateway, secret)),
    type: 'Opaque',
    data: { [generatedSecrets[secret].key]: Buffer.from(values[secret]).toString('base64') },
  }));
}
