import { entitlementLeasePayload } from '@gw/contracts';
import type { BillingContext } from './billing-context.js';
import { errorReply, okReply, type BillingReply } from './billing-reply.js';
import type { BillingRequest } from './billing-server.js';
import { authenticateDeployment } from './deployment-auth.js';

const deploymentIdField = entitlementLeasePayload.shape.deploymentId;

/** GET /v1/entitlement?deploymentId=: a fresh lease without usage, throttled per deployment. */
export function entitlementRoute(request: BillingRequest, context: BillingContext): BillingReply {
  const deploymentId = authenticateDeployment(request.authorization, context);
  if (typeof deploymentId !== 'string') return deploymentId;
  const requested = deploymentIdField.safeParse(request.query.get('deploymentId') ?? undefined);
  if (!requested.success)
    return errorReply(400, 'invalid_request', 'deploymentId query parameter is required (1–128 characters)');
  if (requested.data !== deploymentId)
    return errorReply(403, 'deployment_mismatch', 'deploymentId is not the deployment of this token');
  const now = context.now();
  const verdict = context.throttle.check(deploymentId, now);
  if (!verdict.allowed) {
    const seconds = String(verdict.retryAfterSeconds);
    return errorReply(429, 'rate_limited', `entitlement refreshed too often; retry after ${seconds} s`, {
      'retry-after': seconds,
    });
  }
  context.throttle.answered(deploymentId, now);
  return okReply({ lease: context.leases.issue(now) });
}
