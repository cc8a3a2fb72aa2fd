import { createHash } from 'node:crypto';
import { providerKeySpec, type ProviderKeySpec } from '@gw/contracts';
import type { KubeApi, KubeObject } from '../kube/kube-api.js';
import type { ManagementClient, ProviderKeyState, ProviderKeyWrite } from '../management/management-client.js';
import { readSecret } from './context.js';
import { PolicyRefusal, type ApplyResult, type PolicyHandler } from './policy-reconciler.js';

function specOf(object: KubeObject): ProviderKeySpec {
  return providerKeySpec.parse(object.spec);
}

/** A fingerprint of the applied key for status: shows a rotation happened without revealing the key. */
export function secretFingerprint(value: string): string {
  return `sha256:${createHash('sha256').update(value).digest('hex').slice(0, 16)}`;
}

/** The base URL as the gateway stores and shows it (gateway/src/providers/provider.store.ts). */
export function normalisedBaseUrl(type: ProviderKeySpec['type'], baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return type === 'anthropic' && !/\/v\d+$/.test(trimmed) ? `${trimmed}/v1` : trimmed;
}

/**
 * Whether the gateway's provider matches: type and key always (the v1 read returns the key in full), the base URL
 * when the resource sets one (otherwise the gateway's default for the type stands), the API version except on
 * gw-upstream (which has none).
 */
function inSync(current: ProviderKeyState | undefined, desired: ProviderKeyWrite): boolean {
  if (current === undefined || current.type !== desired.type || current.apiKey !== desired.apiKey) return false;
  if (desired.baseUrl !== undefined && current.baseUrl !== normalisedBaseUrl(desired.type, desired.baseUrl))
    return false;
  return desired.type === 'gw-upstream' || (current.apiVersion ?? undefined) === desired.apiVersion;
}

/**
 * ProviderKey → `PUT /admin/v1/providers/{slug}/key` with the key read from its Secret; re-applied when the
 * Secret rotates (the Secret watch requeues it) or when the gateway's copy drifts; `DELETE` on deletion.
 */
export function providerKeyHandler(api: KubeApi): PolicyHandler {
  return {
    kind: 'ProviderKey',
    claim: (object) => `${specOf(object).gatewayRef.name}/provider:${specOf(object).provider}`,
    describeClaim: (object) =>
      `applies provider "${specOf(object).provider}" to Gateway "${specOf(object).gatewayRef.name}"`,
    async apply(object: KubeObject, client: ManagementClient): Promise<ApplyResult> {
      const spec = specOf(object);
      const secret = await readSecret(api, object.metadata.namespace, spec.secretRef);
      if (secret === null)
        throw new PolicyRefusal('SecretNotFound', `Secret "${spec.secretRef.name}" has no key "${spec.secretRef.key}"`);
      const apiKey = secret.value.trim();
      const desired: ProviderKeyWrite = {
        type: spec.type,
        apiKey,
        ...(spec.baseUrl ? { baseUrl: spec.baseUrl } : {}),
        ...(spec.apiVersion && spec.type !== 'gw-upstream' ? { apiVersion: spec.apiVersion } : {}),
      };
      const current = (await client.listProviderKeys()).find((provider) => provider.slug === spec.provider);
      const wrote = !inSync(current, desired);
      if (wrote) await client.putProviderKey(spec.provider, desired);
      const fingerprint = secretFingerprint(apiKey);
      const applied = (object.status as { secretVersion?: string } | undefined)?.secretVersion;
      return {
        wrote,
        secretRotated: wrote && applied !== undefined && applied !== fingerprint,
        message: `Provider "${spec.provider}" (${spec.type}) holds the key from Secret "${spec.secretRef.name}"`,
        fields: { secretVersion: fingerprint },
      };
    },
    async cleanup(object: KubeObject, client: ManagementClient): Promise<void> {
      await client.deleteProviderKey(specOf(object).provider);
    },
  };
}
