import { isoInstant } from '@gw/platform';
import { z } from 'zod';
import type { Clock } from '@gw/platform';
import type { EndpointDeps } from '../endpoint-deps.js';
import { fetchFleetRollup } from '../fleet-rollup.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { boundTenantOf } from '../../admin/tenant-reach.js';

/** The fleet summary is cached in-process for 15 seconds. */
export const fleetStatusCacheMs = 15_000;

const fleetStatus = z.object({
  configured: z.boolean().describe('GW_ENDPOINT_CONTROL_URL is set'),
  reachable: z.boolean().optional().describe('The evidence service answered'),
  checkedAt: z.string().optional(),
  rollup: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Host, compliance and failing-policy counts (no host, device or user)'),
});
type FleetStatus = z.infer<typeof fleetStatus>;

/** `GET /admin/endpoint-fleet/status` and `/admin/v1/fleet/status`: read-only, never an error for an unreachable service. */
export function fleetStatusOperations(deps: {
  endpoint: EndpointDeps | null;
  fleetMode: boolean;
  clock: Clock;
}): AdminOperation[] {
  const cache = new Map<string, { at: number; status: FleetStatus }>();
  const read = async (tenant: string | null): Promise<FleetStatus> => {
    const { endpoint } = deps;
    if (!endpoint) return { configured: false };
    const orgId = endpoint.orgs.orgIdOf(tenant);
    const now = deps.clock.now();
    const cached = cache.get(orgId);
    if (cached && now - cached.at < fleetStatusCacheMs) return cached.status;
    const rollup = await fetchFleetRollup(endpoint, tenant);
    const status: FleetStatus = rollup
      ? { configured: true, reachable: true, checkedAt: isoInstant(now), rollup }
      : { configured: true, reachable: false };
    cache.set(orgId, { at: now, status });
    return status;
  };
  return [
    defineOperation({
      id: 'endpoint.fleet.status',
      summary:
        'Read-only fleet summary (cached 15 s); an unreachable service answers {configured:true, reachable:false}',
      method: 'GET',
      capability: 'observability:read',
      legacy: [{ path: '/admin/endpoint-fleet/status' }],
      v1: { path: '/admin/v1/fleet/status' },
      xScope: 'tenant',
      response: fleetStatus,
      handler: async ({ principal }) => read(boundTenantOf(deps.fleetMode, principal)),
    }),
  ];
}
