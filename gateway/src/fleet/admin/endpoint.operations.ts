import { z } from 'zod';
import { packContent } from '@gw/contracts';
import { sha256Hex } from '@gw/platform';
import { gatewayErrors } from '../../errors.js';
import type { EndpointDeps } from '../endpoint-deps.js';
import { relayEndpointAnswer } from '../endpoint-relay.js';
import { defineOperation, type AdminOperation, type HttpMethod } from '../../admin/operation.js';
import type { Principal } from '../../admin/principal.js';
import { boundTenantOf } from '../../admin/tenant-reach.js';

export interface EndpointOperationDeps {
  /** Null when `GW_ENDPOINT_CONTROL_URL` is unset: every `/admin/endpoint/*` route answers 404. */
  endpoint: EndpointDeps | null;
  fleetMode: boolean;
}

/** The pack this gateway image bundles; the evidence service's must match (`packSync`). */
const bundledPackVersion = sha256Hex(JSON.stringify(packContent)).slice(0, 16);

const serviceAnswer = z
  .record(z.string(), z.unknown())
  .describe('The endpoint evidence service’s answer, as its own OpenAPI document describes it');
// Identifiers only: a `.` or `..` segment would walk the evidence service's paths once the URL is normalised.
const hostParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'a host id') });
const policyParams = z.object({ name: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'a policy name') });
const sourceParams = z.object({ source: z.string().regex(/^[a-z0-9_]{1,64}$/, 'an evidence source') });
const orgResponse = z.looseObject({
  id: z.string(),
  name: z.string(),
  packSync: z
    .object({ status: z.enum(['in-sync', 'stale', 'unknown']), bundled: z.string(), applied: z.string().nullable() })
    .describe('Whether the service runs the policy pack this gateway bundles'),
});

interface Route {
  id: string;
  summary: string;
  method: HttpMethod;
  capability: 'observability:read' | 'enrollment:manage' | 'provisioning:manage';
  legacy: string;
  v1: string;
  scope?: string;
  params?: z.ZodType;
  body?: z.ZodType;
  /** The evidence-service path under `/admin/orgs/{org}`, from the validated params. */
  upstream: (params: Record<string, string>) => string;
  noStore?: boolean;
}

const enc = encodeURIComponent;

// Endpoint rows, with their v1 twins under /admin/v1/fleet.
const routes: readonly Route[] = [
  {
    id: 'endpoint.hosts.list',
    summary: 'Hosts reporting evidence, most recent first',
    method: 'GET',
    capability: 'observability:read',
    legacy: '/admin/endpoint/hosts',
    v1: '/admin/v1/fleet/hosts',
    upstream: () => '/hosts',
  },
  {
    id: 'endpoint.hosts.get',
    summary: 'One host and its current results (content-free)',
    method: 'GET',
    capability: 'observability:read',
    legacy: '/admin/endpoint/hosts/:id',
    v1: '/admin/v1/fleet/hosts/{id}',
    params: hostParams,
    upstream: (params) => `/hosts/${enc(params.id)}`,
  },
  {
    id: 'endpoint.hosts.delete',
    summary: 'Delete a host record',
    method: 'DELETE',
    capability: 'provisioning:manage',
    legacy: '/admin/endpoint/hosts/:id',
    v1: '/admin/v1/fleet/hosts/{id}',
    params: hostParams,
    upstream: (params) => `/hosts/${enc(params.id)}`,
  },
  {
    id: 'endpoint.hosts.remediate',
    summary:
      'Queue allowlisted remediation scripts on a built-in agent host (one check’s, or every failing check’s); 409 monitor_only for customer-managed hosts',
    method: 'POST',
    capability: 'provisioning:manage',
    legacy: '/admin/endpoint/hosts/:id/remediate',
    v1: '/admin/v1/fleet/hosts/{id}/remediate',
    scope: 'fleet:remediate',
    params: hostParams,
    // Fastify hands an absent body over as null: without one, every failing check's script is queued.
    body: z
      .strictObject({
        policyName: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,128}$/, 'a policy name')
          .describe('One check to remediate; omit to remediate every failing check that has a script'),
      })
      .nullish(),
    upstream: (params) => `/hosts/${enc(params.id)}/remediate`,
  },
  {
    id: 'endpoint.policies.list',
    summary: 'The policy pack with this organization’s switches',
    method: 'GET',
    capability: 'observability:read',
    legacy: '/admin/endpoint/policies',
    v1: '/admin/v1/fleet/policies',
    upstream: () => '/policies',
  },
  {
    id: 'endpoint.policies.hosts',
    summary: 'Hosts with a result for one check, failing first',
    method: 'GET',
    capability: 'observability:read',
    legacy: '/admin/endpoint/policies/:name/hosts',
    v1: '/admin/v1/fleet/policies/{name}/hosts',
    params: policyParams,
    upstream: (params) => `/policies/${enc(params.name)}/hosts`,
  },
  {
    id: 'endpoint.policies.set',
    summary: 'Enable or disable one check',
    method: 'POST',
    capability: 'enrollment:manage',
    legacy: '/admin/endpoint/policies/:name',
    v1: '/admin/v1/fleet/policies/{name}',
    scope: 'fleet:enroll',
    params: policyParams,
    body: z.strictObject({ enabled: z.boolean() }),
    upstream: (params) => `/policies/${enc(params.name)}`,
  },
  {
    id: 'endpoint.policies.automation',
    summary:
      'Turn automatic remediation of one check on or off (a failing result on a built-in agent host queues its script)',
    method: 'POST',
    capability: 'provisioning:manage',
    legacy: '/admin/endpoint/policies/:name/automation',
    v1: '/admin/v1/fleet/policies/{name}/automation',
    scope: 'fleet:remediate',
    params: policyParams,
    body: z.strictObject({ autoRemediate: z.boolean() }),
    upstream: (params) => `/policies/${enc(params.name)}/automation`,
  },
  {
    id: 'endpoint.connectors.list',
    summary: 'Evidence connectors and connectable sources',
    method: 'GET',
    capability: 'enrollment:manage',
    legacy: '/admin/endpoint/evidence-connectors',
    v1: '/admin/v1/fleet/evidence-connectors',
    scope: 'fleet:enroll',
    upstream: () => '/evidence-connectors',
  },
  {
    id: 'endpoint.connectors.rotate',
    summary: 'Mint or rotate a source’s aer_ token, shown once',
    method: 'POST',
    capability: 'enrollment:manage',
    legacy: '/admin/endpoint/evidence-connectors/:source/rotate',
    v1: '/admin/v1/fleet/evidence-connectors/{source}/rotate',
    scope: 'fleet:enroll',
    params: sourceParams,
    upstream: (params) => `/evidence-connectors/${enc(params.source)}/rotate`,
    noStore: true,
  },
  {
    id: 'endpoint.connectors.revoke',
    summary: 'Revoke a source’s aer_ token immediately',
    method: 'DELETE',
    capability: 'enrollment:manage',
    legacy: '/admin/endpoint/evidence-connectors/:source',
    v1: '/admin/v1/fleet/evidence-connectors/{source}',
    scope: 'fleet:enroll',
    params: sourceParams,
    upstream: (params) => `/evidence-connectors/${enc(params.source)}`,
  },
];

export type EndpointCall = (principal: Principal, method: string, path: string, body?: unknown) => Promise<unknown>;

/** The evidence service, or the 404 every `/admin/endpoint/*` route answers when it is not configured. */
export function connectedEndpoint(
  endpoint: EndpointOperationDeps['endpoint'],
): NonNullable<EndpointOperationDeps['endpoint']> {
  if (!endpoint) throw gatewayErrors.notFound('endpoint control (GW_ENDPOINT_CONTROL_URL is not set)');
  return endpoint;
}

/** A call on the caller's organization (`/admin/orgs/{org}{path}`), bound first, its answer relayed. */
export function endpointCaller({ endpoint, fleetMode }: EndpointOperationDeps): EndpointCall {
  return async (principal, method, path, body) => {
    const { client, orgs } = connectedEndpoint(endpoint);
    const orgId = await orgs.bind(boundTenantOf(fleetMode, principal));
    return relayEndpointAnswer(await client.request(method, `/admin/orgs/${orgId}${path}`, body));
  };
}

/**
 * The endpoint evidence service's admin plane, re-served (the contract `/admin/endpoint/*`, `/admin/v1/fleet/*`;
 * The contract). The caller's organization is the deployment's, or its tenant's in fleet mode.
 */
export function endpointOperations({ endpoint, fleetMode }: EndpointOperationDeps): AdminOperation[] {
  const call = endpointCaller({ endpoint, fleetMode });
  const relayed = routes.map((route) =>
    defineOperation({
      id: route.id,
      summary: route.summary,
      method: route.method,
      capability: route.capability,
      legacy: [{ path: route.legacy }],
      v1: { path: route.v1, ...(route.scope ? { scope: route.scope } : {}) },
      xScope: 'tenant',
      ...(route.params ? { params: route.params } : {}),
      ...(route.body ? { body: route.body } : {}),
      response: route.method === 'DELETE' ? z.object({ ok: z.literal(true) }) : serviceAnswer,
      handler: async ({ params, body, principal, reply }) => {
        const answer = await call(
          principal,
          route.method,
          route.upstream((params ?? {}) as Record<string, string>),
          route.body ? (body ?? undefined) : undefined,
        );
        if (route.noStore) void reply.header('cache-control', 'no-store');
        return route.method === 'DELETE' ? { ok: true } : answer;
      },
    }),
  );
  return [
    defineOperation({
      id: 'endpoint.org.get',
      summary: 'The organization’s endpoint-control record, with packSync (in-sync, stale or unknown)',
      method: 'GET',
      capability: 'observability:read',
      legacy: [{ path: '/admin/endpoint/org' }],
      v1: { path: '/admin/v1/fleet/org' },
      xScope: 'tenant',
      response: orgResponse,
      handler: async ({ principal }) => {
        const org = (await call(principal, 'GET', '')) as Record<string, unknown>;
        const applied = await call(principal, 'GET', '/policies')
          .then((answer) => (answer as { packVersion?: unknown }).packVersion)
          .catch(() => undefined);
        const appliedVersion = typeof applied === 'string' ? applied : null;
        const status =
          appliedVersion === null ? 'unknown' : appliedVersion === bundledPackVersion ? 'in-sync' : 'stale';
        return { ...org, packSync: { status, bundled: bundledPackVersion, applied: appliedVersion } };
      },
    }),
    ...relayed,
  ];
}
