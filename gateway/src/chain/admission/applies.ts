import type { FastifyRequest } from 'fastify';

// Routes of the inference scope that call no model: self-service reads, the model list, token counting
// and the optimize-only extension route (no provider call).
const exempt: ReadonlySet<string> = new Set([
  '/v1/me',
  '/v1/me/usage',
  '/v1/me/limits',
  '/v1/models',
  '/v1/messages/count_tokens',
  '/v1/extensions/vscode/optimize',
]);

/** Whether admission (limits, caps, budgets) applies: every `/v1/*` route that can reach a provider. */
export function admissionApplies(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  return route !== undefined && !exempt.has(route);
}

/** The endpoint a spend row names: the route, or the concrete path under the `/v1/*` catch-all. */
export function endpointOf(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route && !route.includes('*')) return route;
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
}
