import type { ProviderInstance } from '../../providers/provider-types.js';
import type { ProviderStore } from '../../providers/provider.store.js';
import { assertSafeUpstreamUrl, customHostAllowed } from '../../providers/ssrf-guard.js';
import { gatewayError } from '../../errors.js';

export const anthropicPublicBaseUrl = 'https://api.anthropic.com/v1';

/** The organization's stored Anthropic-family key (seat overflow bills it); null until one is stored. */
export function organizationProvider(providers: ProviderStore): ProviderInstance | null {
  return providers.all().find((provider) => provider.type === 'anthropic' && provider.apiKey) ?? null;
}

/**
 * Where a subscription seat's request goes: the client's `x-gw-custom-host` when allowlisted (SSRF-guarded), else the
 * provider's own host (the configured Anthropic provider's base URL, else the public API). The instance carries no
 * credential: the developer's own token travels in the headers.
 */
export async function seatUpstream(
  providers: ProviderStore,
  customHost: string | undefined,
  policy: { allowlist: string | undefined; allowPrivate: boolean },
): Promise<ProviderInstance> {
  let baseUrl =
    organizationProvider(providers)?.baseUrl ??
    providers.all().find((provider) => provider.type === 'anthropic')?.baseUrl ??
    anthropicPublicBaseUrl;
  if (customHost) {
    const url = await assertSafeUpstreamUrl(customHost, { allowPrivate: policy.allowPrivate });
    if (!customHostAllowed(url, policy.allowlist))
      throw gatewayError('custom_host_not_allowed', `x-gw-custom-host ${url.host} is not in GW_CUSTOM_HOST_ALLOWLIST.`);
    baseUrl = url.toString().replace(/\/+$/, '');
    if (!/\/v\d+$/.test(baseUrl)) baseUrl = `${baseUrl}/v1`;
  }
  return { slug: 'anthropic', type: 'anthropic', family: 'anthropic', apiKey: null, baseUrl, apiVersion: null };
}
