import { z } from 'zod';
import { relayEndpointAnswer } from '../endpoint-relay.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { boundTenantOf } from '../../admin/tenant-reach.js';
import { connectedEndpoint, endpointCaller, type EndpointOperationDeps } from './endpoint.operations.js';

const serviceAnswer = z
  .record(z.string(), z.unknown())
  .describe('The endpoint evidence service’s answer, as its own OpenAPI document describes it');
const executionParams = z.object({ id: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'an execution id') });
const remediationQuery = z.object({
  hostId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'a host id')
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
const enrollSecretStatus = z.object({
  hasSecret: z.boolean().describe('The evidence service holds an enroll secret for this organization'),
  createdAt: z.string().nullable(),
  deliverable: z
    .boolean()
    .describe(
      'The gateway holds this very secret (it was last rotated through the gateway), so /connect/endpoint-enrollment can hand it out',
    ),
});

/**
 * The built-in agent lane on the gateway's admin plane (the contract enroll-secret rows, fleet; the contract,
 * ): the enroll secret (presence on read, the plaintext once on rotate, kept sealed for
 * `/connect/endpoint-enrollment`), the script catalog, and the remediation audit, whose output only a principal
 * holding the content-read capability (`fleet:content`) sees.
 */
export function agentLaneOperations(deps: EndpointOperationDeps): AdminOperation[] {
  const call = endpointCaller(deps);
  const orgIdOf = (principal: Parameters<typeof call>[0]) =>
    connectedEndpoint(deps.endpoint).orgs.orgIdOf(boundTenantOf(deps.fleetMode, principal));
  return [
    defineOperation({
      id: 'endpoint.enrollSecret.get',
      summary: 'Whether an agent enroll secret exists (presence only, never the secret)',
      method: 'GET',
      capability: 'enrollment:manage',
      legacy: [{ path: '/admin/endpoint/enroll-secret' }],
      v1: { path: '/admin/v1/fleet/enroll-secret', scope: 'fleet:enroll' },
      xScope: 'tenant',
      response: enrollSecretStatus,
      handler: async ({ principal }) => {
        const status = (await call(principal, 'GET', '/enroll-secret')) as {
          hasSecret: boolean;
          createdAt: string | null;
        };
        const deliverable =
          status.hasSecret &&
          (await connectedEndpoint(deps.endpoint).enrollSecrets.isCurrent(orgIdOf(principal), status.createdAt));
        return { hasSecret: status.hasSecret, createdAt: status.createdAt, deliverable };
      },
    }),
    defineOperation({
      id: 'endpoint.enrollSecret.rotate',
      summary: 'Mint or rotate the agent enroll secret, shown once; hosts already enrolled are unaffected',
      method: 'POST',
      capability: 'enrollment:manage',
      legacy: [{ path: '/admin/endpoint/enroll-secret/rotate' }],
      v1: { path: '/admin/v1/fleet/enroll-secret/rotate', scope: 'fleet:enroll' },
      xScope: 'tenant',
      response: z.object({
        enrollSecret: z.string().describe('Live credential: shown once, never logged'),
        createdAt: z.string(),
      }),
      // The answer is a live credential: the audit names what changed, never the value.
      auditSubjects: () => ({ target: 'enroll-secret', subject: null }),
      handler: async ({ principal, reply }) => {
        const rotated = (await call(principal, 'POST', '/enroll-secret/rotate')) as {
          enrollSecret: string;
          createdAt: string;
        };
        await connectedEndpoint(deps.endpoint).enrollSecrets.store(
          orgIdOf(principal),
          rotated.enrollSecret,
          rotated.createdAt,
        );
        void reply.header('cache-control', 'no-store');
        return { enrollSecret: rotated.enrollSecret, createdAt: rotated.createdAt };
      },
    }),
    defineOperation({
      id: 'endpoint.scripts.list',
      summary:
        'Every remediation script in the evidence service’s image, with its whole contents and the checks that dispatch it',
      method: 'GET',
      capability: 'observability:read',
      legacy: [{ path: '/admin/endpoint/scripts' }],
      v1: { path: '/admin/v1/fleet/scripts' },
      xScope: 'tenant',
      response: serviceAnswer,
      handler: async () =>
        relayEndpointAnswer(await connectedEndpoint(deps.endpoint).client.request('GET', '/admin/scripts')),
    }),
    defineOperation({
      id: 'endpoint.remediations.list',
      summary: 'The remediation audit, newest first (never output)',
      method: 'GET',
      capability: 'observability:read',
      legacy: [{ path: '/admin/endpoint/remediations' }],
      v1: { path: '/admin/v1/fleet/remediations' },
      xScope: 'tenant',
      query: remediationQuery,
      response: serviceAnswer,
      handler: async ({ principal, query }) => {
        const search = new URLSearchParams({
          limit: String(query.limit),
          ...(query.hostId ? { hostId: query.hostId } : {}),
        });
        return call(principal, 'GET', `/remediations?${search.toString()}`);
      },
    }),
    defineOperation({
      id: 'endpoint.remediations.get',
      summary: 'One remediation (never output)',
      method: 'GET',
      capability: 'observability:read',
      legacy: [{ path: '/admin/endpoint/remediations/:id' }],
      v1: { path: '/admin/v1/fleet/remediations/{id}' },
      xScope: 'tenant',
      params: executionParams,
      response: serviceAnswer,
      handler: async ({ principal, params }) =>
        call(principal, 'GET', `/remediations/${encodeURIComponent(params.id)}`),
    }),
    defineOperation({
      id: 'endpoint.remediations.output',
      summary:
        'A remediation with its retained script output (encrypted at rest, 8 KiB, 30 days; `outputState` says why there is none)',
      method: 'GET',
      capability: 'content:read',
      legacy: [{ path: '/admin/endpoint/remediations/:id/output' }],
      v1: { path: '/admin/v1/fleet/remediations/{id}/output', scope: 'fleet:content' },
      xScope: 'tenant',
      // Reading script output is a content read: audited like a write.
      audit: true,
      auditCategory: 'fleet',
      params: executionParams,
      response: serviceAnswer,
      handler: async ({ principal, params }) =>
        call(principal, 'GET', `/remediations/${encodeURIComponent(params.id)}?includeOutput=true`),
    }),
  ];
}
