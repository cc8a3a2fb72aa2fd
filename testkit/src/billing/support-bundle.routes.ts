import { isoInstant } from '@gw/platform';
import { randomBytes } from 'node:crypto';
import { supportBundleMaxBytes, supportBundleUpload, type SupportBundleReceipt } from '@gw/contracts';
import type { BillingContext } from './billing-context.js';
import { errorReply, okReply, type BillingReply } from './billing-reply.js';
import type { BillingRequest } from './billing-server.js';
import { authenticateDeployment } from './deployment-auth.js';
import { describeIssue, parseJson } from './json-body.js';

/** The intake holds at most 1,000,000 bytes and one bundle per deployment per minute. */
export function supportBundleRoute(request: BillingRequest, context: BillingContext): BillingReply {
  const deploymentId = authenticateDeployment(request.authorization, context);
  if (typeof deploymentId !== 'string') return deploymentId;
  if (request.body === 'too_large' || request.body.length > supportBundleMaxBytes)
    return errorReply(413, 'payload_too_large', `a support bundle is at most ${supportBundleMaxBytes} bytes`);
  const json = parseJson(request.body);
  if (json === undefined) return errorReply(400, 'invalid_request', 'body is not JSON');
  const parsed = supportBundleUpload.safeParse(json);
  if (!parsed.success) return errorReply(400, 'invalid_request', describeIssue(parsed.error.issues[0]));
  if (parsed.data.deploymentId !== deploymentId)
    return errorReply(403, 'deployment_mismatch', 'deploymentId is not the deployment of this token');
  const now = context.now();
  const verdict = context.bundleThrottle.check(deploymentId, now);
  if (!verdict.allowed)
    return errorReply(429, 'rate_limited', 'one support bundle per deployment per minute', {
      'retry-after': String(verdict.retryAfterSeconds),
    });
  context.bundleThrottle.answered(deploymentId, now);
  const receipt: SupportBundleReceipt = {
    receiptId: `sbr_${randomBytes(12).toString('base64url')}`,
    receivedAt: isoInstant(now),
  };
  context.supportBundles.push({ ...receipt, upload: parsed.data });
  return okReply(receipt);
}
