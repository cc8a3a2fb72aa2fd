import type { BillingContext } from './billing-context.js';
import { errorReply, type BillingReply } from './billing-reply.js';
import type { BillingHandler, BillingRequest } from './billing-server.js';
import { CLI_CALLBACK_PATH, cliActivateRoute, cliAuthorizeRoute, cliCallbackRoute } from './cli-browser.routes.js';
import { certRenewRoute } from './cert-renew.routes.js';
import { cliSsoPollRoute, cliSsoStartRoute } from './cli-sso.routes.js';
import { entitlementRoute } from './entitlement.routes.js';
import { enrollmentIdentitiesRoute, tenantContextRoute } from './enrollment-identities.routes.js';
import type { FailureQueue } from './fail-next.js';
import { meterRoute } from './meter.routes.js';
import { orgHubIdentityRoute } from './org-hub.routes.js';
import { supportBundleRoute } from './support-bundle.routes.js';
import { latestReleaseRoute } from './releases.routes.js';

/** One request as a test sees it: never a body, never a header. */
export interface BillingRequestRecord {
  method: string;
  path: string;
  status: number;
}

interface Route {
  method: string;
  /** `id` is the last path segment of a route registered as `…/:id`. */
  handle(request: BillingRequest, context: BillingContext, id?: string): BillingReply;
}

const ROUTES: ReadonlyMap<string, Route> = new Map([
  ['/v1/meter', { method: 'POST', handle: meterRoute }],
  ['/v1/entitlement', { method: 'GET', handle: entitlementRoute }],
  ['/v1/cli-sso/start', { method: 'POST', handle: cliSsoStartRoute }],
  ['/v1/cli-sso/poll', { method: 'POST', handle: cliSsoPollRoute }],
  ['/v1/support-bundles', { method: 'POST', handle: supportBundleRoute }],
  ['/v1/releases/latest', { method: 'GET', handle: latestReleaseRoute }],
  ['/v1/cert/renew', { method: 'POST', handle: certRenewRoute }],
  ['/v1/org-hub/identity', { method: 'POST', handle: orgHubIdentityRoute }],
  ['/v1/enrollment-identities', { method: 'PUT', handle: enrollmentIdentitiesRoute }],
  ['/v1/tenant-context', { method: 'GET', handle: tenantContextRoute }],
  ['/sso/cli/activate/:id', { method: 'GET', handle: cliActivateRoute }],
  ['/sso/cli/authorize', { method: 'POST', handle: cliAuthorizeRoute }],
  [CLI_CALLBACK_PATH, { method: 'GET', handle: cliCallbackRoute }],
]);

/** Scripted failures first, then the route table; every answer's status is recorded, a simulator fault's too. */
export function createBillingRouter(
  context: BillingContext,
  failures: FailureQueue,
  log: BillingRequestRecord[],
): BillingHandler {
  return (request) => {
    let reply: BillingReply;
    try {
      reply = route(request, context, failures);
    } catch (error) {
      reply = errorReply(500, 'internal_error', error instanceof Error ? error.message : 'simulator failure');
    }
    log.push({ method: request.method, path: request.path, status: reply.status });
    return reply;
  };
}

function route(request: BillingRequest, context: BillingContext, failures: FailureQueue): BillingReply {
  const failure = request.path.startsWith('/v1/') ? failures.take(request.path) : null;
  if (failure) return failure;
  const match = findRoute(request.path);
  if (!match) return errorReply(404, 'not_found', `no route ${request.path}`);
  const { method } = match.route;
  if (request.method !== method)
    return errorReply(405, 'method_not_allowed', `${request.path} takes ${method}`, { allow: method });
  return match.route.handle(request, context, match.id);
}

function findRoute(path: string): { route: Route; id?: string } | undefined {
  const exact = ROUTES.get(path);
  if (exact) return { route: exact };
  const slash = path.lastIndexOf('/');
  const id = path.slice(slash + 1);
  const parameterized = ROUTES.get(`${path.slice(0, slash)}/:id`);
  return parameterized && id !== '' ? { route: parameterized, id } : undefined;
}
