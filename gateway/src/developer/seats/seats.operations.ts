import { z } from 'zod';
import { gatewayError } from '../../errors.js';
import { checkStatus } from './seat-health.schema.js';
import { directiveQueueBody, directiveRecord } from './seat-directive.schema.js';
import type { SeatDirectiveStore } from './seat-directive.store.js';
import type { SeatStore } from './seat.store.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import type { Principal } from '../../admin/principal.js';
import { boundTenantOf } from '../../admin/tenant-reach.js';

export interface SeatOperationDeps {
  seats: SeatStore;
  directives: SeatDirectiveStore;
  /** `GW_MULTI_TENANT=true`: a tenant-bound principal reaches its own tenant's seats only. */
  fleetMode: boolean;
}

const limit = z.coerce.number().int().min(1).max(500).default(100).describe('At most this many, 1..500 (default 100)');
const seatRecord = z.object({
  tenant: z.string().nullable().describe('Fleet mode: the seat’s tenant; null for the deployment'),
  user: z.string().describe('The developer, lower-cased (a service key shows as `service:<key id>`)'),
  checks: z.array(z.object({ name: z.string(), status: checkStatus })),
  score: z.number().int().nullable().describe('Share of decided doctor checks that pass, 0–100'),
  clientVersion: z.string().nullable(),
  reportedAt: z.string().nullable(),
  offboarded: z
    .boolean()
    .describe('Offboarded and not re-enrolled since (a key minted for the developer after the mark clears it)'),
  offboardedAt: z.string().nullable(),
});
const directiveListQuery = z.object({
  limit,
  user: z.string().min(1).max(320).optional().describe('Only this developer’s seat'),
  open: z.enum(['true', 'false']).optional().describe('`true`: only directives not yet acked'),
});

/**
 * Developer seats as the connect CLI reports them, and the directives queued for them (* `/admin/v1/fleet/seats`, `/admin/v1/fleet/directives`; legacy `/admin/connect-health`, `/admin/connect/directives`).
 */
export function seatOperations({ seats, directives, fleetMode }: SeatOperationDeps): AdminOperation[] {
  /** A tenant-bound principal in fleet mode sees its tenant; everyone else sees every seat. */
  const readTenant = (principal: Principal) => boundTenantOf(fleetMode, principal) ?? undefined;
  const writeTenant = (principal: Principal, requested: string | undefined) => {
    const bound = readTenant(principal);
    if (bound !== undefined && requested !== undefined && requested !== bound)
      throw gatewayError(
        'invalid_request',
        'tenant: a tenant-bound principal queues directives for its own tenant only',
      );
    return bound ?? requested ?? '';
  };
  const withTenant = <T extends { tenant: string }>(record: T) => ({
    ...record,
    tenant: record.tenant === '' ? null : record.tenant,
  });
  return [
    defineOperation({
      id: 'fleet.seats.list',
      summary: 'Developer seats: each one’s last doctor report, compliance score and offboarding',
      method: 'GET',
      capability: 'observability:read',
      legacy: [{ path: '/admin/connect-health' }],
      v1: { path: '/admin/v1/fleet/seats' },
      xScope: 'tenant',
      query: z.object({ limit }),
      response: z.object({ seats: z.array(seatRecord) }),
      handler: async ({ query, principal }) => ({
        seats: (await seats.list({ tenant: readTenant(principal), limit: query.limit })).map(({ seat, ...record }) =>
          withTenant({ ...record, user: seat }),
        ),
      }),
    }),
    defineOperation({
      id: 'fleet.seats.query',
      summary: 'The seats of a roster of developers, keyed by the identities sent (null for one with no seat)',
      method: 'POST',
      capability: 'observability:read',
      legacy: [{ path: '/admin/connect-health/query' }],
      v1: { path: '/admin/v1/fleet/seats/query' },
      xScope: 'tenant',
      body: z.strictObject({
        users: z.array(z.string().trim().min(1).max(320)).min(1).max(500).describe('Developer addresses, any case'),
      }),
      response: z.object({
        seats: z
          .record(z.string(), z.array(seatRecord).nullable())
          .describe('Per identity sent: its seats (one per tenant), or null'),
      }),
      handler: async ({ body, principal }) => {
        const found = await seats.ofUsers(body.users, readTenant(principal));
        const bySeat = new Map<string, ReturnType<typeof withTenant>[]>();
        for (const { seat, ...record } of found)
          bySeat.set(seat, [...(bySeat.get(seat) ?? []), withTenant({ ...record, user: seat })]);
        return { seats: Object.fromEntries(body.users.map((user) => [user, bySeat.get(user.toLowerCase()) ?? null])) };
      },
    }),
    defineOperation({
      id: 'fleet.directives.list',
      summary: 'Directives queued for developer seats, newest first',
      method: 'GET',
      capability: 'observability:read',
      legacy: [{ path: '/admin/connect/directives' }],
      v1: { path: '/admin/v1/fleet/directives' },
      xScope: 'tenant',
      query: directiveListQuery,
      response: z.object({ directives: z.array(directiveRecord) }),
      handler: async ({ query, principal }) => ({
        directives: await directives.list({
          tenant: readTenant(principal),
          user: query.user,
          open: query.open === 'true',
          limit: query.limit,
        }),
      }),
    }),
    defineOperation({
      id: 'fleet.directives.queue',
      summary: 'Queue a directive for a developer seat (reapply_config, remint, revert, revert_tool, update)',
      method: 'POST',
      capability: 'directives:manage',
      legacy: [{ path: '/admin/connect/directives' }],
      v1: { path: '/admin/v1/fleet/directives', scope: 'fleet:direct' },
      xScope: 'tenant',
      successStatus: 201,
      body: directiveQueueBody,
      response: directiveRecord,
      auditSubjects: ({ result }) => ({
        target: (result as { id: string }).id,
        subject: (result as { user: string }).user,
      }),
      handler: async ({ body, principal }) =>
        directives.queue(
          { tenant: writeTenant(principal, body.tenant), seat: body.user.toLowerCase() },
          { kind: body.kind, tool: body.tool ?? null, createdBy: principal.actor },
        ),
    }),
  ];
}
