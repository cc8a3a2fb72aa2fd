import { knownModels } from '../providers/pricing/known-models.js';
import type { ProviderStore } from '../providers/provider.store.js';
import type { RoutingStore } from '../routing/routing.store.js';

/**
 * `GET /v1/models` from configured providers and aliases: the well-known models of each provider's
 * family and the models the routing config adds (`/admin/v1/routing/models`), addressed as `<provider>/<model>`, bare
 * ids for the default provider, and every alias whose provider is configured. OpenAI shape by default; the Anthropic
 * shape when the client speaks Messages (it sends `anthropic-version`).
 */
export function listModels(providers: ProviderStore, routing: RoutingStore, anthropicClient: boolean) {
  const { default: defaults, aliases, models: configured } = routing.documents;
  const catalog = { ...knownModels, ...configured };
  const seen = new Set<string>();
  const ids: Array<{ id: string; ownedBy: string }> = [];
  const add = (id: string, ownedBy: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    ids.push({ id, ownedBy });
  };
  for (const provider of providers.all()) {
    for (const [model, facts] of Object.entries(catalog)) {
      if (facts.family !== provider.family) continue;
      if (provider.slug === defaults.defaultProvider) add(model, provider.slug);
      add(`${provider.slug}/${model}`, provider.slug);
    }
  }
  for (const [alias, target] of Object.entries(aliases)) {
    if (providers.get(target.provider)) add(alias, target.provider);
  }
  if (anthropicClient) {
    const data = ids.map(({ id }) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
    return {
      object: 'list' as const,
      data: data.map((entry) => ({ ...entry, object: 'model' as const, owned_by: 'gw' })),
      has_more: false,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
    };
  }
  return {
    object: 'list' as const,
    data: ids.map(({ id, ownedBy }) => ({ id, object: 'model' as const, created: 0, owned_by: ownedBy })),
  };
}

/**
 * `GET /v1/models/{id}` for an id only the gateway knows (an alias, or `<provider>/<model>`): that one entry of the
 * list, in the caller's shape. Null for any other id: a provider's own model id is proxied upstream, which describes it
 * better than the gateway can.
 */
export function describeModel(providers: ProviderStore, routing: RoutingStore, anthropicClient: boolean, id: string) {
  if (!Object.hasOwn(routing.documents.aliases, id) && !id.includes('/')) return null;
  const listed = listModels(providers, routing, anthropicClient);
  const entries: ReadonlyArray<{ id: string }> = listed.data;
  const found = entries.find((entry) => entry.id === id);
  if (!found) return null;
  if (!anthropicClient) return found;
  const { object: _object, owned_by: _ownedBy, ...anthropic } = found as Record<string, unknown>;
  return anthropic;
}
