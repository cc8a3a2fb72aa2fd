import { z } from 'zod';
import { gatewayErrors } from '../../errors.js';
import { enrollmentLinkCreateBody, enrollmentLinkCreated, enrollmentLinkRecord } from './enrollment-link.schema.js';
import type { EnrollmentLinkStore } from './enrollment-link.store.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import type { Principal } from '../../admin/principal.js';
import { boundTenantOf, tenantReachOf } from '../../admin/tenant-reach.js';

const idParams = z.object({ id: z.string().min(1).max(100) });
const removeQuery = z.object({
  hard: z
    .enum(['true', 'false'])
    .optional()
    .describe('`true` deletes the record; otherwise the link is revoked and kept'),
});

/** Enrollment links. */
export function enrollmentOperations({
  links,
  fleetMode,
}: {
  links: EnrollmentLinkStore;
  fleetMode: boolean;
}): AdminOperation[] {
  // In fleet mode a tenant-bound principal mints and sees its own tenant's links, whose keys are that tenant's.
  const tenantOf = (principal: Principal) => boundTenantOf(fleetMode, principal);
  const reach = tenantReachOf(fleetMode);
  return [
    defineOperation({
      id: 'enrollment.links.create',
      summary:
        'Mint an enrollment link for a team (optionally one developer): its token is shown once and redeemed at POST /connect/verify',
      method: 'POST',
      capability: 'enrollment:manage',
      legacy: [{ path: '/admin/enrollment-links' }],
      v1: { path: '/admin/v1/enrollment/links' },
      xScope: 'tenant',
      successStatus: 201,
      body: enrollmentLinkCreateBody,
      response: enrollmentLinkCreated,
      auditSubjects: ({ result }) => ({
        target: (result as { link: { id: string } }).link.id,
        subject: (result as { link: { user: string | null } }).link.user,
      }),
      handler: async ({ body, principal, reply }) => {
        void reply.header('cache-control', 'no-store');
        return links.create({ ...body, tenant: tenantOf(principal), createdBy: principal.actor });
      },
    }),
    defineOperation({
      id: 'enrollment.links.list',
      summary: 'Enrollment links, newest first, with their status and uses (never the token)',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/enrollment-links' }],
      v1: { path: '/admin/v1/enrollment/links' },
      xScope: 'tenant',
      response: z.object({ links: z.array(enrollmentLinkRecord) }),
      handler: async ({ principal }) => ({ links: await links.list(reach(principal)) }),
    }),
    defineOperation({
      id: 'enrollment.links.get',
      summary: 'One enrollment link',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/enrollment-links/:id' }],
      v1: { path: '/admin/v1/enrollment/links/{id}' },
      xScope: 'tenant',
      params: idParams,
      response: enrollmentLinkRecord,
      handler: async ({ params, principal }) => {
        const link = await links.get(params.id, reach(principal));
        if (!link) throw gatewayErrors.notFound(`enrollment link ${params.id}`);
        return link;
      },
    }),
    defineOperation({
      id: 'enrollment.links.remove',
      summary: 'Revoke an enrollment link (keys already minted stay valid); ?hard=true deletes the record',
      method: 'DELETE',
      capability: 'enrollment:manage',
      legacy: [{ path: '/admin/enrollment-links/:id' }],
      v1: { path: '/admin/v1/enrollment/links/{id}' },
      xScope: 'tenant',
      params: idParams,
      query: removeQuery,
      response: z.object({ ok: z.literal(true) }),
      handler: async ({ params, query, principal }) => {
        if (!(await links.remove(params.id, { hard: query.hard === 'true', ...reach(principal) })))
          throw gatewayErrors.notFound(`enrollment link ${params.id}`);
        return { ok: true as const };
      },
    }),
  ];
}
