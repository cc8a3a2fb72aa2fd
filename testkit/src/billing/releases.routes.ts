import type { ReleaseManifest } from '@gw/contracts';
import type { BillingContext } from './billing-context.js';
import { okReply, type BillingReply } from './billing-reply.js';
import type { BillingRequest } from './billing-server.js';
import { authenticateDeployment } from './deployment-auth.js';

/** GET /v1/releases/latest: the release line's current version and its bounded requirements, or null. */
export function latestReleaseRoute(request: BillingRequest, context: BillingContext): BillingReply {
  const deploymentId = authenticateDeployment(request.authorization, context);
  if (typeof deploymentId !== 'string') return deploymentId;
  const release: ReleaseManifest | null = context.release.current;
  return okReply({ release });
}
