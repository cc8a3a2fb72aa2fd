import { z } from 'zod';
import { defineOperation, type AdminOperation, type HttpMethod } from '../../admin/operation.js';

/**
 * The retired self-hosted endpoint-management server lane. The gateway once drove a customer's own fleet server
 * (its connection config, policy pack, hosts, scripts and enroll secret) from `/admin/endpoint-fleet*`; the endpoint
 * evidence service replaced it (`evidence/README.md`). Old consoles and scripts still call these paths, so each one
 * answers 410 Gone with the route that replaced it, instead of a bare 404. Nothing is read, written or audited: the
 * call did nothing. The Management API never re-served this lane, so there is no v1 twin.
 */
interface RetiredRoute {
  id: string;
  method: HttpMethod;
  path: string;
  /** What the route did, for the message. */
  did: string;
  /** The route on the evidence service's admin plane (through the gateway) that does the job now. */
  successor: string;
  /** How to get there, when the successor is not a drop-in. */
  how: string;
}

const retiredRoutes: readonly RetiredRoute[] = [
  {
    id: 'endpointFleet.config.get',
    method: 'GET',
    path: '/admin/endpoint-fleet',
    did: 'read the self-hosted server connection',
    successor: '/admin/v1/fleet/policies',
    how: 'checks and their remediation switches live on the endpoint evidence service',
  },
  {
    id: 'endpointFleet.config.put',
    method: 'PUT',
    path: '/admin/endpoint-fleet',
    did: 'configure the self-hosted server connection',
    successor: '/admin/v1/fleet/policies',
    how: 'enable checks and set their automatic remediation there (POST /admin/v1/fleet/policies/{name}/automation)',
  },
  {
    id: 'endpointFleet.config.delete',
    method: 'DELETE',
    path: '/admin/endpoint-fleet',
    did: 'retire the self-hosted server connection',
    successor: '/admin/v1/fleet/org',
    how: 'there is no stored connection left to delete',
  },
  {
    id: 'endpointFleet.pack.get',
    method: 'GET',
    path: '/admin/endpoint-fleet/pack',
    did: 'compare the bundled and applied policy pack',
    successor: '/admin/v1/fleet/org',
    how: 'the organization read carries packSync (in-sync, stale or unknown)',
  },
  {
    id: 'endpointFleet.pack.sync',
    method: 'POST',
    path: '/admin/endpoint-fleet/sync',
    did: 'apply the bundled policy pack to the self-hosted server',
    successor: '/admin/v1/fleet/org',
    how: 'the evidence service runs the pack this gateway bundles; packSync on the organization read says whether it does',
  },
  {
    id: 'endpointFleet.hosts.get',
    method: 'GET',
    path: '/admin/endpoint-fleet/hosts/:id',
    did: 'read one host from the self-hosted server',
    successor: '/admin/v1/fleet/hosts/{id}',
    how: 'host ids are the evidence service’s (list them with GET /admin/v1/fleet/hosts)',
  },
  {
    id: 'endpointFleet.hosts.runScript',
    method: 'POST',
    path: '/admin/endpoint-fleet/hosts/:id/run-script',
    did: 'run a mapped script through the self-hosted server',
    successor: '/admin/v1/fleet/hosts/{id}/remediate',
    how: 'it queues the allowlisted script of a failing check',
  },
  {
    id: 'endpointFleet.enrollSecret.get',
    method: 'GET',
    path: '/admin/endpoint-fleet/enroll-secret',
    did: 'read the self-hosted server’s enroll secret',
    successor: '/admin/v1/fleet/enroll-secret',
    how: 'agents enroll with the evidence service’s secret',
  },
  {
    id: 'endpointFleet.enrollSecret.rotate',
    method: 'POST',
    path: '/admin/endpoint-fleet/enroll-secret/rotate',
    did: 'rotate the self-hosted server’s enroll secret',
    successor: '/admin/v1/fleet/enroll-secret/rotate',
    how: 'the new secret is shown once',
  },
];

export const retiredLaneCode = 'endpoint_fleet_lane_retired';

/** The legacy admin error envelope, answered with status 410. */
const goneResponse = z
  .object({ error: z.object({ code: z.literal(retiredLaneCode), message: z.string() }) })
  .describe(
    '410 Gone: the self-hosted server lane is retired; the message and the Link header name the route that replaced this one',
  );

function messageOf(route: RetiredRoute): string {
  return `${route.method} ${route.path} is retired: the gateway no longer drives a self-hosted endpoint-management server. To ${route.did}, use ${route.successor} on the endpoint evidence service (${route.how}).`;
}

/** The retired routes, each a documented 410 naming its successor; the `Link` header carries the successor too. */
export function retiredServerLaneOperations(): AdminOperation[] {
  return retiredRoutes.map((route) =>
    defineOperation({
      id: route.id,
      summary: `Retired: answers 410 ${retiredLaneCode} naming ${route.successor}`,
      method: route.method,
      // Any authenticated admin learns where the job went; nothing behind the route is reachable any more.
      capability: null,
      legacy: [{ path: route.path }],
      xScope: 'tenant',
      successor: route.successor,
      successStatus: 410,
      audit: false,
      response: goneResponse,
      handler: async () => ({ error: { code: retiredLaneCode, message: messageOf(route) } }),
    }),
  );
}

/** Every retired route (method and path), for the tests and the README. */
export const retiredServerLaneRoutes = retiredRoutes.map(({ method, path, successor }) => ({
  method,
  path,
  successor,
}));
