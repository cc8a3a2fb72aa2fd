import {
  enrollmentIdentitiesRequest,
  tenantContextQuery,
  type EnrollmentIdentitiesResponse,
  type TenantContext,
} from '@gw/contracts';
import { authenticatedBody } from './authenticated-body.js';
import type { BillingContext } from './billing-context.js';
import { errorReply, okReply, type BillingReply } from './billing-reply.js';
import type { BillingRequest } from './billing-server.js';
import { authenticateDeployment } from './deployment-auth.js';
import { describeIssue } from './json-body.js';

/** PUT /v1/enrollment-identities: deployment bearer, a strict batch for this very deployment, idempotent. */
export function enrollmentIdentitiesRoute(request: BillingRequest, context: BillingContext): BillingReply {
  const body = authenticatedBody(request, context, enrollmentIdentitiesRequest);
  if (!body.ok) return body.reply;
  if (body.data.deploymentId !== context.deploymentId)
    return errorReply(403, 'deployment_mismatch', 'deploymentId is not the deployment of this token');
  const counts = context.roster.record(body.data.identities);
  const answer: EnrollmentIdentitiesResponse = { ...counts, receivedAt: new Date(context.now()).toISOString() };
  return okReply(answer);
}

/**
 * GET /v1/tenant-context?clientKeyHash=…: fleet mode only. A deployment billing runs single-tenant answers 404
 * `fleet_mode_disabled`; an unknown hash answers 404 `unknown_client_key`.
 */
export function tenantContextRoute(request: BillingRequest, context: BillingContext): BillingReply {
  const deploymentId = authenticateDeployment(request.authorization, context);
  if (typeof deploymentId !== 'string') return deploymentId;
  const query = tenantContextQuery.safeParse(Object.fromEntries(request.query));
  if (!query.success) return errorReply(400, 'invalid_request', describeIssue(query.error.issues[0]));
  if (!context.tenants.fleetMode)
    return errorReply(404, 'fleet_mode_disabled', 'this deployment is not a fleet; there is no tenant context');
  const tenant = context.tenants.byKeyHash.get(query.data.clientKeyHash);
  if (!tenant) return errorReply(404, 'unknown_client_key', 'no tenant holds a client key with this hash');
  const answer: TenantContext = { ...tenant, deploymentId };
  return okReply(answer);
}
