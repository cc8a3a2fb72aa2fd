import { deploymentTokenPrefix } from '@gw/contracts';
import { timingSafeEqualString } from '@gw/platform';
import type { BillingContext } from './billing-context.js';
import { errorReply, type BillingReply } from './billing-reply.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The gateway authenticates with its deployment bearer (`adt_`). The deployment it belongs to, or a 401. */
export function authenticateDeployment(
  authorization: string | undefined,
  context: BillingContext,
): string | BillingReply {
  const token = BEARER.exec(authorization ?? '')?.[1];
  if (token === undefined) return errorReply(401, 'invalid_deployment_token', 'missing deployment bearer');
  if (!token.startsWith(deploymentTokenPrefix) || !timingSafeEqualString(token, context.deploymentToken)) {
    return errorReply(401, 'invalid_deployment_token', 'unknown deployment token');
  }
  return context.deploymentId;
}
