import { z } from 'zod';
import { deliveredCheckDelivery, policyPushActor } from '@gw/contracts';
import type { AuditStore } from '../../admin/audit/audit.store.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { endpointCaller, type EndpointOperationDeps } from './endpoint.operations.js';

export interface PolicyPushOperationDeps extends EndpointOperationDeps {
  audit: AuditStore;
}

const checkParams = z.object({
  checkId: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a delivered check id'),
});
const deliveredCheck = z.looseObject({
  id: z.string(),
  revision: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  verified: z.boolean(),
  replaces: z.string().nullable(),
});
const laneState = z
  .looseObject({
    enabled: z.boolean().describe('The policy-push lane: on by default; off withdraws and refuses delivered checks'),
    checks: z.array(deliveredCheck),
  })
  .describe('The lane switch and every delivered check the evidence service holds for this organization');

/**
 * The policy-push lane on the gateway's admin plane, relayed to the evidence service (which verifies each check
 * offline against the keys pinned in the image, `docs/adr/0027-delivered-check-signatures.md`). Reading needs
 * `fleet:read`; delivering, the lane switch and the per-check switch need the provisioning capability
 * (`fleet:write`). Besides the caller's own audit entry, each delivered check is audited with actor `gw-policy-push`:
 * the vendor's signature is the authority for what a check is, the caller only relayed it.
 */
export function policyPushOperations(deps: PolicyPushOperationDeps): AdminOperation[] {
  const call = endpointCaller(deps);
  return [
    defineOperation({
      id: 'endpoint.policyPush.get',
      summary: 'The policy-push lane: its switch and the vendor-delivered checks held, with their queries for review',
      method: 'GET',
      capability: 'observability:read',
      legacy: [{ path: '/admin/endpoint/policy-push' }],
      v1: { path: '/admin/v1/fleet/policy-push' },
      xScope: 'tenant',
      response: laneState,
      handler: async ({ principal }) => laneState.parse(await call(principal, 'GET', '/delivered-checks')),
    }),
    defineOperation({
      id: 'endpoint.policyPush.deliver',
      summary:
        'Deliver vendor-signed checks (read-only, monitor-only, never critical, never a script): all taken or none',
      method: 'POST',
      capability: 'provisioning:manage',
      legacy: [{ path: '/admin/endpoint/policy-push' }],
      v1: { path: '/admin/v1/fleet/policy-push', scope: 'fleet:write' },
      xScope: 'tenant',
      body: deliveredCheckDelivery,
      response: laneState,
      auditSubjects: () => ({ target: 'policy-push', subject: null }),
      handler: async ({ principal, body, requestId }) => {
        const lane = laneState.parse(await call(principal, 'POST', '/delivered-checks', body));
        const delivered = new Set(
          body.checks.map((check) => Buffer.from(check.payload, 'base64url').toString('utf8')).map(checkIdOf),
        );
        for (const check of lane.checks.filter((held) => delivered.has(held.id)))
          await deps.audit.record({
            category: 'fleet',
            action: 'endpoint.policyPush.delivered',
            actor: policyPushActor,
            target: `delivered-check:${check.id}`,
            requestId,
            outcome: 'success',
            status: 200,
            details: { revision: check.revision, name: check.name, replaces: check.replaces },
          });
        return lane;
      },
    }),
    defineOperation({
      id: 'endpoint.policyPush.lane',
      summary: 'Switch the policy-push lane on or off; off withdraws every delivered check and refuses future ones',
      method: 'PUT',
      capability: 'provisioning:manage',
      legacy: [{ path: '/admin/endpoint/policy-push' }],
      v1: { path: '/admin/v1/fleet/policy-push', scope: 'fleet:write' },
      xScope: 'tenant',
      body: z.strictObject({ enabled: z.boolean() }),
      response: z.object({ enabled: z.boolean(), withdrawn: z.number().int() }),
      auditSubjects: () => ({ target: 'policy-push', subject: null }),
      handler: async ({ principal, body }) =>
        (await call(principal, 'PUT', '/delivered-checks/lane', body)) as { enabled: boolean; withdrawn: number },
    }),
    defineOperation({
      id: 'endpoint.policyPush.check',
      summary: 'Enable or disable one delivered check (a disabled one gives back the image check it replaced)',
      method: 'POST',
      capability: 'provisioning:manage',
      legacy: [{ path: '/admin/endpoint/policy-push/:checkId' }],
      v1: { path: '/admin/v1/fleet/policy-push/{checkId}', scope: 'fleet:write' },
      xScope: 'tenant',
      params: checkParams,
      body: z.strictObject({ enabled: z.boolean() }),
      response: z.object({ id: z.string(), enabled: z.boolean() }),
      handler: async ({ principal, params, body }) =>
        (await call(principal, 'POST', `/delivered-checks/${params.checkId}`, body)) as {
          id: string;
          enabled: boolean;
        },
    }),
  ];
}

/** The check id a signed payload names (already verified by the evidence service, which answered 200). */
function checkIdOf(json: string): string | null {
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === 'object' && parsed !== null && 'id' in parsed && typeof parsed.id === 'string'
      ? parsed.id
      : null;
  } catch {
    return null;
  }
}
