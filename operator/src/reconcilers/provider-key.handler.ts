import { createHash } from 'node:crypto';
import { providerKeySpec, type ProviderKeySpec } from '@gw/contracts';
import type { KubeApi, KubeObject } from '../kube/kube-api.js';
import type { ManagementClient, ProviderKeyWrite } from '../management/management-client.js';
import { readSecretValue } from './context.js';
import { PolicyRefusal, type ApplyResult, type PolicyHandler } from './policy-reconciler.js';

function specOf(object: KubeObject): ProviderKeySpec {
  return providerKeySpec.parse(object.spec);
}

/** A fingerprint of the applied key for status: shows a rotation happened without revealing the key. */
export function secretFingerprint(value: string): string {
  return `sha256:${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;
}

/**
 * ProviderKey → `PUT /admin/v1/providers/{slug}/key` with the key read from its Secret; re-applied when the
 * Secret rotates (the Secret watch requeues it) or when the gateway's copy drifts; `DELETE` on deletion.
 */
export function providerKeyHandler(api: KubeApi): PolicyHandler {
  return {
    kind: 'ProviderKey',
    claim: (object) => `${specOf(object).gatewayRef.name}/provider:${specOf(object).provider}`,
    describeClaim: (object) => `applies provider "${specOf(object).provider}" to Gateway "${specOf(object).gatewayRef.name}"`,
    async apply(object: KubeObject, client: ManagementClient): Promise<ApplyResult> {
      const spec = specOf(object);
      const apiKey = await readSecretValue(api, object.metadata.namespace, spec.secretRef);
      if (apiKey === null) throw new PolicyRefusal('SecretNotFound', `Secret "${spec.secretRef.name}" has no key "${spec.secretRef.key}"`);
      const desired: ProviderKeyWrite = { type: spec.type, apiKey, ...(spec.baseUrl ? { baseUrl: spec.baseUrl } : {}), ...(spec.apiVersion ? { apiVersion: spec.apiVersion } : {}) };
      const current = (await client.listProviderKeys()).find((provider) => provider.slug === spec.provider);
      const inSync =
        current !== undefined &&
        current.type === desired.type &&
        current.apiKey === desired.apiKey &&
        (desired.baseUrl === undefined || current.baseUrl === desired.baseUrl) &&
        (current.apiVersion ?? undefined) === desired.apiVersion;
      if (!inSync) await client.putProviderKey(spec.provider, desired);
      return { wrote: !inSync, message: `Provider "${spec.provider}" (${spec.type}) holds the key from Secret "${spec.secretRef.name}"`, fields: { secretVersion: secretFingerprint(apiKey) } };
    },
    async cleanup(object: KubeObject, client: ManagementClient): Promise<void> {
      await client.deleteProviderKey(specOf(object).provider);
    },
  };
}
