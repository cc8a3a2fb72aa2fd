import { gatewayError } from '../errors.js';
import { endpointControlUnreachable } from './endpoint-control.client.js';
import type { EndpointDeps } from './endpoint-deps.js';

/**
 * The organization's enroll secret as the evidence service holds it now, from the gateway's sealed copy: 409
 * `enroll_secret_unavailable` until an administrator rotates it through the gateway, and again once it was rotated
 * or revoked at the service directly (that copy would enroll nothing). Reading never rotates.
 */
export async function liveEnrollSecret(endpoint: EndpointDeps, orgId: string): Promise<string> {
  const status = await endpoint.client.request('GET', `/admin/orgs/${orgId}/enroll-secret`);
  if (status.status !== 200 && status.status !== 404) throw endpointControlUnreachable();
  const createdAt = status.status === 200 ? (status.body as { createdAt?: unknown } | null)?.createdAt : null;
  if (!(await endpoint.enrollSecrets.isCurrent(orgId, typeof createdAt === 'string' ? createdAt : null)))
    throw gatewayError('enroll_secret_unavailable');
  const secret = await endpoint.enrollSecrets.read(orgId);
  if (secret === null) throw gatewayError('enroll_secret_unavailable');
  return secret;
}
