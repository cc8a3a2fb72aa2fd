import { orgHubIdentityRequest } from '@gw/contracts';
import { authenticatedBody } from './authenticated-body.js';
import type { BillingContext } from './billing-context.js';
import { errorReply, okReply, type BillingReply } from './billing-reply.js';
import type { BillingRequest } from './billing-server.js';

/**
 * POST /v1/org-hub/identity: the live identity check behind `/mcp/org`. 200 with the member, 403 with
 * the refusal's code, 503 `org_hub_unconfirmed` (retryable) until an operator confirmed the organization policy and
 * this exact resource indicator.
 */
export function orgHubIdentityRoute(request: BillingRequest, context: BillingContext): BillingReply {
  const body = authenticatedBody(request, context, orgHubIdentityRequest);
  if (!body.ok) return body.reply;
  const verdict = context.orgHub.verdict(body.data);
  switch (verdict.kind) {
    case 'active':
      return okReply(verdict.answer);
    case 'unconfirmed':
      return errorReply(
        503,
        'org_hub_unconfirmed',
        'An operator has not confirmed the organization policy and this resource indicator for the deployment.',
        { 'retry-after': '60' },
      );
    default:
      return errorReply(
        403,
        verdict.refusal,
        `The subject is not an eligible member of the organization (${verdict.refusal}).`,
      );
  }
}
