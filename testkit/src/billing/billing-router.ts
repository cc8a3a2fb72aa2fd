import type { BillingContext } from './billing-context.js';
import { errorReply, type BillingReply } from './billing-reply.js';
import type { BillingHandler, BillingRequest } from './billing-server.js';
import { entitlementRoute } from './entitlement.routes.js';
import type { FailureQueue } from './fail-next.js';
import { meterRoute } from './meter.routes.js';

/** One request as a test sees it: never a body, never a header. */
export interface BillingRequestRecord {
  method: string;
  path: string;
  status: number;
}

interface Route {
  method: string;
  handle(request: BillingRequest, context: BillingContext): BillingReply;
}

const ROUTES: ReadonlyMap<string, Route> = new Map([
  ['/v1/meter', { method: 'POST', handle: meterRoute }],
  ['/v1/entitlement', { method: 'GET', handle: entitlementRoute }],
]);

/** Scripted failures first, then the route table; every answer's status is recorded, a simulator fault's too. */
export function createBillingRouter(context: BillingContext, failures: FailureQueue, log: BillingRequestRecord[]): BillingHandler {
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
  const failure = request.path.startsWith('/v1/') ? failures.take() : null;
  if (failure) return failure;
  const match = ROUTES.get(request.path);
  if (!match) return errorReply(404, 'not_found', `no route ${request.path}`);
  if (request.method !== match.method) return errorReply(405, 'method_not_allowed', `${request.path} takes ${match.method}`, { allow: match.method });
  return match.handle(request, context);
}
