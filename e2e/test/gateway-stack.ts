import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type RunningService } from './process.js';

export const e2eAdminToken = 'e2e-admin-token-0123456789abcdef';

export interface AdminAnswer {
  status: number;
  body: Record<string, unknown> & { error?: { code: string } };
}

/** One admin call on a running gateway with a bearer admin token (GW_ADMIN_TOKEN or an `aak_` key). */
export async function adminRequest(
  target: { url: string; token: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<AdminAnswer> {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${target.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as AdminAnswer['body'] };
}

export interface GatewayStack {
  gateway: RunningService;
  admin(method: string, path: string, body?: unknown): Promise<AdminAnswer>;
  mintClientKey(user?: string, team?: string): Promise<string>;
  close(): Promise<void>;
}

/** The built gateway as a real process on the embedded store in a temporary data folder. */
export async function startGatewayStack(env: Record<string, string> = {}): Promise<GatewayStack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-e2e-'));
  const gateway = await startService('gateway/dist/main.js', {
    GW_DATA_DIR: dataDir,
    GW_PORT: '0',
    GW_HOST: '127.0.0.1',
    GW_ADMIN_TOKEN: e2eAdminToken,
    GW_ALLOW_PRIVATE_UPSTREAMS: 'true',
    GW_LOG_LEVEL: 'warn',
    ...env,
  });
  const admin = (method: string, path: string, body?: unknown) =>
    adminRequest({ url: gateway.url, token: e2eAdminToken }, method, path, body);
  return {
    gateway,
    admin,
    mintClientKey: async (user = 'dev@example.com', team = 'platform') => {
      const minted = await admin('POST', '/admin/v1/keys', { user, team });
      if (minted.status !== 201) throw new Error(`mint failed: ${JSON.stringify(minted)}`);
      return minted.body.key as string;
    },
    close: async () => {
      await gateway.stop('SIGTERM');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
