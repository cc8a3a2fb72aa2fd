import type { BillingContext } from './billing-context.js';
import { errorReply, type BillingReply } from './billing-reply.js';
import type { BillingRequest } from './billing-server.js';
import { authenticateDeployment } from './deployment-auth.js';
import { describeIssue, parseJson, type BodySchema } from './json-body.js';

export type BodyResult<T> = { ok: true; data: T } | { ok: false; reply: BillingReply };

/** The deployment bearer first (same rule as /v1/meter), then a strict JSON body. */
export function authenticatedBody<T>(
  request: BillingRequest,
  context: BillingContext,
  schema: BodySchema<T>,
): BodyResult<T> {
  const deploymentId = authenticateDeployment(request.authorization, context);
  if (typeof deploymentId !== 'string') return { ok: false, reply: deploymentId };
  if (request.body === 'too_large') return { ok: false, reply: errorReply(413, 'payload_too_large', 'body too large') };
  const json = parseJson(request.body);
  if (json === undefined) return { ok: false, reply: errorReply(400, 'invalid_request', 'body is not JSON') };
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    return { ok: false, reply: errorReply(400, 'invalid_request', describeIssue(parsed.error.issues[0])) };
  return { ok: true, data: parsed.data };
}
