import { knownModels } from '../pricing/known-models.js';
import type { ProviderStore } from '../providers/provider.store.js';
import type { RoutingStore } from '../routing/routing.store.js';

/**
 * `GET /v1/models` from configured providers: the well-known models of each provider's family, addressed as
 * `<provider>/<model>`, and bare ids for the default provider. OpenAI shape by default; the Anthropic shape when the
 * client speaks Messages (it sends `anthropic-version`).
 */
export function listModels(providers: ProviderStore, routing: RoutingStore, anthropicClient: boolean) {
  const defaultProvider = routing.documents.default.defaultProvider;
  const ids: Array<{ id: string; ownedBy: string }> = [];
  for (const provider of providers.all()) {
    for (const [model, facts] of Object.entries(knownModels)) {
      if (facts.family !== provider.family) continue;
      if (provider.slug === defaultProvider) ids.push({ id: model, ownedBy: provider.slug });
      ids.push({ id: `${provider.slug}/${model}`, ownedBy: provider.slug });
    }
  }
  if (anthropicClient) {
    const data = ids.map(({ id }) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
    return { object: 'list' as const, data: data.map((entry) => ({ ...entry, object: 'model' as const, owned_by: 'gw' })), has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
  }
  return { object: 'list' as const, data: ids.map(({ id, ownedBy }) => ({ id, object: 'model' as const, created: 0, owned_by: ownedBy })) };
}
