import type { FastifyRequest } from 'fastify';
import type { ProviderStore } from '../providers/provider.store.js';
import { firstTarget, resolveRoute, selectionFor, type Selection } from './resolve-route.js';
import type { RoutingStore } from './routing.store.js';

/** The first target of the request's route, for single-shot routes (count_tokens, opaque passthrough). */
export function selectSingle(
  request: FastifyRequest,
  model: string,
  providers: ProviderStore,
  routing: RoutingStore,
): Selection {
  const headerProvider = request.headers['x-gw-provider'];
  const configHeader = request.headers['x-gw-config'];
  const route = resolveRoute(
    {
      headerProvider: typeof headerProvider === 'string' ? headerProvider : undefined,
      configHeader: typeof configHeader === 'string' ? configHeader : undefined,
      model,
    },
    providers,
    routing,
  );
  return selectionFor(firstTarget(route.plan), route, providers);
}
