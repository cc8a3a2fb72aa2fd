import { isoInstant } from '@gw/platform';
import { meterReport, type MeterResponse } from '@gw/contracts';
import type { BillingContext } from './billing-context.js';
import { errorReply, okReply, type BillingReply } from './billing-reply.js';
import type { BillingRequest } from './billing-server.js';
import { authenticateDeployment } from './deployment-auth.js';
import { describeIssue, parseJson } from './json-body.js';

export const MAX_METER_BODY_BYTES = 1024 * 1024;

/** POST /v1/meter: ingest a usage rollup and heartbeat, answer with a freshly signed lease. */
export function meterRoute(request: BillingRequest, context: BillingContext): BillingReply {
  const deploymentId = authenticateDeployment(request.authorization, context);
  if (typeof deploymentId !== 'string') return deploymentId;
  if (request.body === 'too_large')
    return errorReply(413, 'payload_too_large', `report body over ${MAX_METER_BODY_BYTES} bytes`);
  const json = parseJson(request.body);
  if (json === undefined) return errorReply(400, 'invalid_report', 'body is not JSON');
  const parsed = meterReport.safeParse(json);
  if (!parsed.success) return errorReply(400, 'invalid_report', describeIssue(parsed.error.issues[0]));
  if (parsed.data.deploymentId !== deploymentId)
    return errorReply(403, 'deployment_mismatch', 'deploymentId is not the deployment of this token');
  context.ledger.record(parsed.data);
  // A repeated reportId still gets a fresh lease: the gateway retries exactly when it did not receive the first one.
  const now = context.now();
  const body: MeterResponse = { lease: context.leases.issue(now), receivedAt: isoInstant(now) };
  return okReply(body);
}
