import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '@gw/platform';
import { z } from 'zod';
import type { EnrollSecretStore } from '../agent/enroll-secret.store.js';
import { evidenceErrorResponses, evidenceErrors } from '../errors.js';
import type { OrgStore } from '../orgs/org.store.js';

export interface EnrollSecretRouteOptions {
  orgs: OrgStore;
  secrets: EnrollSecretStore;
}

const security = [{ adminBearer: [] }];
const tags = ['admin'];
const errors = evidenceErrorResponses(['invalid_request', 'unauthorized', 'not_found']);
const orgParams = z.object({ orgId: z.string().min(1).max(100) });

/**
 * The organization's agent enroll secret on the admin plane: presence
 * only on read, the plaintext once on rotate. Hosts already enrolled keep working after a rotation.
 */
export async function enrollSecretRoutes(plain: FastifyInstance, options: EnrollSecretRouteOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { orgs, secrets } = options;
  const existingOrg = async (orgId: string) => {
    if (!(await orgs.get(orgId))) throw evidenceErrors.notFound(`Organization ${orgId}`);
  };

  app.get(
    '/admin/orgs/:orgId/enroll-secret',
    {
      schema: {
        tags,
        security,
        summary: 'Whether the organization has an agent enroll secret (never the secret)',
        params: orgParams,
        response: { 200: z.object({ hasSecret: z.boolean(), createdAt: z.string().nullable() }), ...errors },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      await existingOrg(orgId);
      return secrets.status(orgId);
    },
  );
  app.post(
    '/admin/orgs/:orgId/enroll-secret/rotate',
    {
      schema: {
        tags,
        security,
        summary:
          'Mint or rotate the agent enroll secret, shown once; enrolled hosts are unaffected, new enrollments need the new secret',
        params: orgParams,
        response: { 200: z.object({ enrollSecret: z.string(), createdAt: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      await existingOrg(orgId);
      return reply.header('cache-control', 'no-store').send(await secrets.rotate(orgId));
    },
  );
  app.delete(
    '/admin/orgs/:orgId/enroll-secret',
    {
      schema: {
        tags,
        security,
        summary: 'Revoke the enroll secret: no new host can enroll',
        params: orgParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      if (!(await secrets.revoke(orgId))) throw evidenceErrors.notFound('An enroll secret');
      return reply.code(204).send(null);
    },
  );
}
