import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { bearerOf, type Principal, type PrincipalResolver } from '../src/admin/principal.js';
import { adminHeaders, startTestGateway, type TestGateway } from './helpers.js';

/**
 * A principal of the test's choosing without an identity provider: `Authorization: Bearer session-<name>` resolves
 * to the named principal through the seam console sessions use (`adminSessionResolver`); the sign-in itself is tested
 * in console-sso.test.ts.
 */
export function sessionResolver(sessions: Readonly<Record<string, Principal>>): PrincipalResolver {
  return {
    async resolve(request) {
      const bearer = bearerOf(request);
      return bearer?.startsWith('session-') ? (sessions[bearer.slice('session-'.length)] ?? null) : null;
    },
  };
}

export const sessionHeaders = (name: string) => ({ authorization: `Bearer session-${name}` });

/** A test gateway whose admin plane also resolves the given console-session principals. */
export async function startAdminGateway(
  options: Parameters<typeof startTestGateway>[0] & { sessions?: Record<string, Principal> } = {},
): Promise<TestGateway> {
  const { sessions, ...rest } = options;
  const base = await startTestGateway(rest);
  if (!sessions) return base;
  const app = await buildApp({ ...base.deps, adminSessionResolver: sessionResolver(sessions) });
  await app.ready();
  return {
    ...base,
    app,
    close: async () => {
      await app.close();
      await base.close();
    },
  };
}

export async function mintAdminKey(
  app: FastifyInstance,
  body: Record<string, unknown>,
  headers: Record<string, string> = adminHeaders,
) {
  const response = await app.inject({ method: 'POST', url: '/admin/v1/admin-keys', headers, payload: body });
  if (response.statusCode !== 201) throw new Error(`admin key mint failed: ${response.statusCode} ${response.body}`);
  return response.json<{
    key: string;
    record: { id: string; caps: string[] | null; scopes: string[] | null; expiresAt: string | null };
  }>();
}
