import type { z } from 'zod';
import type { GatewayConfig } from '../config.js';
import type { ProviderStore } from './provider.store.js';
import { isProviderType, type ProviderType } from './provider-types.js';
import { adapters } from './adapters.js';
import { assertSafeUpstreamUrl, customHostAllowed, type Resolver } from './ssrf-guard.js';
import { defineOperation, type AdminOperation } from '../admin/operation.js';
import { okResponse, providerKeyBody, providerList, providerSlugParams, providerSummary } from './provider.schema.js';
import { gatewayError, gatewayErrors } from '../errors.js';

export interface ProviderOperationDeps {
  providers: ProviderStore;
  config: Pick<GatewayConfig, 'GW_ALLOW_PRIVATE_UPSTREAMS' | 'GW_CUSTOM_HOST_ALLOWLIST'>;
  resolver?: Resolver;
}

const invalid = (message: string) => gatewayError('invalid_request', message);

function redact(key: string | null | undefined): string | null {
  if (!key) return null;
  return key.length <= 8 ? '…' : `${key.slice(0, 3)}…${key.slice(-4)}`;
}

/** Validate a provider write: type resolution, required fields per type, SSRF guard, the gw-upstream allowlist. */
async function validateWrite(slug: string, body: z.infer<typeof providerKeyBody>, deps: ProviderOperationDeps) {
  const type: ProviderType | undefined = body.type ?? body.provider ?? (isProviderType(slug) ? slug : undefined);
  if (!type)
    throw invalid(
      `body.type is required: "${slug}" is not a provider type (openai, azure-openai, anthropic, openai-compatible, gw-upstream)`,
    );
  if (type === 'gw-upstream') {
    if (!body.custom_host) throw invalid('body.custom_host is required for a gw-upstream provider');
    const url = await assertSafeUpstreamUrl(body.custom_host, {
      allowPrivate: deps.config.GW_ALLOW_PRIVATE_UPSTREAMS,
      ...(deps.resolver ? { resolver: deps.resolver } : {}),
    });
    if (!customHostAllowed(url, deps.config.GW_CUSTOM_HOST_ALLOWLIST))
      throw invalid(
        `custom_host ${url.host} is not in GW_CUSTOM_HOST_ALLOWLIST; the gateway refuses to relay to unlisted hosts`,
      );
    return { type, apiKey: body.api_key ?? body.apiKey ?? null, baseUrl: body.custom_host, apiVersion: null };
  }
  if (!body.apiKey) throw invalid('body.apiKey is required');
  const baseUrl = body.baseUrl ?? null;
  if (!baseUrl && !adapters[type].defaultBaseUrl) throw invalid(`body.baseUrl is required for a ${type} provider`);
  if (baseUrl)
    await assertSafeUpstreamUrl(baseUrl, {
      allowPrivate: deps.config.GW_ALLOW_PRIVATE_UPSTREAMS,
      ...(deps.resolver ? { resolver: deps.resolver } : {}),
    });
  return { type, apiKey: body.apiKey, baseUrl, apiVersion: body.apiVersion ?? null };
}

/** Provider instances: v1 writes and a credential-grade v1 read; the legacy read is redacted. */
export function providerOperations(deps: ProviderOperationDeps): AdminOperation[] {
  const { providers } = deps;
  return [
    defineOperation({
      id: 'providers.putKey',
      summary: 'Create or replace a provider instance and its credential (encrypted at rest)',
      method: 'PUT',
      capability: 'providerkeys:manage',
      v1: { path: '/admin/v1/providers/{slug}/key' },
      xScope: 'deployment',
      params: providerSlugParams,
      body: providerKeyBody,
      response: providerSummary,
      handler: async ({ params, body, principal }) => {
        const write = await validateWrite(params.slug, body, deps);
        await providers.put({ slug: params.slug, ...write, updatedBy: principal.actor });
        const summary = (await providers.summaries()).find((entry) => entry.slug === params.slug);
        if (!summary) throw gatewayError('internal_error', 'provider write did not persist');
        return summary;
      },
    }),
    defineOperation({
      id: 'providers.deleteKey',
      summary: 'Remove a provider instance and its credential',
      method: 'DELETE',
      capability: 'providerkeys:manage',
      v1: { path: '/admin/v1/providers/{slug}/key' },
      xScope: 'deployment',
      params: providerSlugParams,
      response: okResponse,
      handler: async ({ params }) => {
        if (!(await providers.delete(params.slug))) throw gatewayErrors.notFound(`provider ${params.slug}`);
        return { ok: true as const };
      },
    }),
    defineOperation({
      id: 'providers.list',
      summary: 'Provider instances with their keys in full (credential-grade read)',
      method: 'GET',
      capability: 'providerkeys:manage',
      v1: { path: '/admin/v1/providers', scope: 'providers:write' },
      xScope: 'deployment',
      response: providerList,
      handler: async () => ({ providers: await providers.summaries({ includeKeys: true }) }),
    }),
    defineOperation({
      id: 'providerKeys.listRedacted',
      summary: 'Provider instances with redacted keys',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/provider-keys' }],
      successor: '/admin/v1/providers',
      xScope: 'deployment',
      response: providerList,
      handler: async () => ({
        providers: (await providers.summaries({ includeKeys: true })).map((summary) => ({
          ...summary,
          apiKey: redact(summary.apiKey),
        })),
      }),
    }),
  ];
}
