import type { EndpointDeps } from './endpoint-deps.js';

/**
 * The evidence service's content-free rollup for a tenant's organization (null: the deployment's), binding the
 * organization first; null when the service does not answer it. The fleet status route and the metering lane read it.
 */
export async function fetchFleetRollup(
  endpoint: Pick<EndpointDeps, 'client' | 'orgs'>,
  tenant: string | null,
): Promise<Record<string, unknown> | null> {
  try {
    await endpoint.orgs.bind(tenant);
    const answer = await endpoint.client.request('GET', `/admin/orgs/${endpoint.orgs.orgIdOf(tenant)}/rollup`);
    return answer.status === 200 && typeof answer.body === 'object' && answer.body !== null
      ? (answer.body as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
