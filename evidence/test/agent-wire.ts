import type { FastifyInstance } from 'fastify';
import { adminHeaders } from './support.js';

/** An organization with an agent enroll secret. */
export async function orgWithEnrollSecret(app: FastifyInstance): Promise<{ orgId: string; enrollSecret: string }> {
  const org = await app.inject({
    method: 'POST',
    url: '/admin/orgs',
    headers: adminHeaders,
    payload: { name: 'Acme' },
  });
  const orgId = org.json<{ id: string }>().id;
  const rotated = await app.inject({
    method: 'POST',
    url: `/admin/orgs/${orgId}/enroll-secret/rotate`,
    headers: adminHeaders,
  });
  return { orgId, enrollSecret: rotated.json<{ enrollSecret: string }>().enrollSecret };
}

/** One agent-protocol call, as osquery and orbit send it: a JSON POST carrying its credential in the body. */
export function agentPost(app: FastifyInstance, path: string, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: path, payload });
}
