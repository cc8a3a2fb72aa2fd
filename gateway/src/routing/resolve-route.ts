import { ownValue } from '@gw/platform';
import type { ProviderInstance } from '../providers/provider-types.js';
import type { ProviderStore } from '../providers/provider.store.js';
import {
  parseConfigHeader,
  parseRoutingConfig,
  providersOf,
  singleTarget,
  type RoutingNode,
  type TargetNode,
} from './routing-config.js';
import type { RoutingStore } from './routing.store.js';
import { gatewayError } from '../errors.js';

export interface Selection {
  provider: ProviderInstance;
  /** The model id sent upstream (alias or `<slug>/` prefix resolved). */
  model: string;
}

export interface RouteInput {
  headerProvider: string | undefined;
  configHeader: string | undefined;
  /** The model the client named ('' when the route has none, e.g. a passthrough GET). */
  model: string;
}

export interface ResolvedRoute {
  plan: RoutingNode;
  /** How the plan was chosen, for debugging and the spend record. */
  via: 'header' | 'config' | 'alias' | 'model-prefix' | 'default-config' | 'default';
  /** The client's model with an alias resolved; targets without a model use it. */
  model: string;
}

export const unknownProvider = (slug: string) =>
  gatewayError(
    'unknown_provider',
    `Unknown provider "${slug}". Configure it with PUT /admin/v1/providers/${slug}/key or name a configured provider.`,
  );

function stripPrefix(model: string, slug: string): string {
  return model.startsWith(`${slug}/`) ? model.slice(slug.length + 1) : model;
}

/**
 * Selection order: `x-gw-provider`, then the request's routing config (`x-gw-config`), then the
 * configured default (stored routing config, else default provider). A model alias or a `<slug>/<model>` id names its
 * provider when the request chose none.
 */
export function resolveRoute(input: RouteInput, providers: ProviderStore, routing: RoutingStore): ResolvedRoute {
  const documents = routing.documents;
  const alias = ownValue(documents.aliases, input.model);
  let model = alias?.model ?? input.model;
  // `gw-default` (the seat lane's stand-in for a missing model) is the configured default model unless aliased.
  if (!alias && model === 'gw-default') {
    if (!documents.default.defaultModel) throw gatewayError('no_default_model');
    model = documents.default.defaultModel;
  }
  const checked = (route: ResolvedRoute) => {
    for (const slug of providersOf(route.plan)) if (!providers.get(slug)) throw unknownProvider(slug);
    return route;
  };
  if (input.headerProvider)
    return checked({
      plan: singleTarget(input.headerProvider),
      via: 'header',
      model: stripPrefix(model, input.headerProvider),
    });
  if (input.configHeader !== undefined)
    return checked({ plan: parseConfigHeader(input.configHeader), via: 'config', model });
  if (alias) return checked({ plan: singleTarget(alias.provider, alias.model), via: 'alias', model });
  const slash = model.indexOf('/');
  if (slash > 0 && providers.get(model.slice(0, slash)))
    return { plan: singleTarget(model.slice(0, slash)), via: 'model-prefix', model: model.slice(slash + 1) };
  if (documents.default.config)
    return checked({ plan: parseRoutingConfig(documents.default.config), via: 'default-config', model });
  const fallback = documents.default.defaultProvider;
  if (!fallback) throw gatewayError('no_provider');
  return checked({ plan: singleTarget(fallback), via: 'default', model: stripPrefix(model, fallback) });
}

/** The provider and model one target sends to. */
export function selectionFor(target: TargetNode, route: ResolvedRoute, providers: ProviderStore): Selection {
  const provider = providers.get(target.provider);
  if (!provider) throw unknownProvider(target.provider);
  return { provider, model: stripPrefix(target.model ?? route.model, target.provider) };
}

/** The first target a plan would try, for single-shot routes (count_tokens, passthrough). */
export function firstTarget(node: RoutingNode): TargetNode {
  return node.kind === 'target' ? node : firstTarget(node.targets[0]);
}
