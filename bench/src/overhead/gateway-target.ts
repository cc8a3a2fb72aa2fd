import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIsolatedPgDb } from '@gw/testkit';
import { startProcess } from './child-process.js';
import { SERVER_KEY, jsonHeaders, originOf, repoRoot, type LaunchOptions, type Target } from './targets.js';

export interface GatewayTargetOptions extends LaunchOptions {
  store: 'postgres' | 'pglite';
  /** Simulator origin. */
  upstream: string;
  /** Postgres server for the `postgres` store; the gateway gets a fresh schema in it, dropped afterwards. */
  pgUrl: string;
  /** `GW_REDIS_URL`: coordination through Redis, as replicas run; null for in-process. */
  redisUrl: string | null;
  logLevel: string;
}

const ADMIN_TOKEN = `bench-admin-${randomBytes(12).toString('hex')}`;

/**
 * The built gateway (`gateway/dist/main.js`) as a real process with the full chain on: identity with its store
 * read per request, spend record, metrics. Provisioned through its own admin API like an operator would.
 */
export async function startGatewayTarget(options: GatewayTargetOptions): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-bench-'));
  const isolated = options.store === 'postgres' ? await createIsolatedPgDb(options.pgUrl) : null;
  const cleanUp = async () => {
    await isolated?.dispose();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const gateway = await startProcess({
      name: options.store === 'postgres' ? 'gateway' : 'gateway-pglite',
      entry: join(repoRoot, 'gateway/dist/main.js'),
      cwd: repoRoot,
      nodeArgs: options.nodeArgs,
      launcher: options.launcher,
      env: {
        GW_PORT: '0',
        GW_HOST: '127.0.0.1',
        GW_DATA_DIR: dataDir,
        GW_ADMIN_TOKEN: ADMIN_TOKEN,
        GW_KEYSTORE_KEY: randomBytes(32).toString('hex'),
        GW_ALLOW_PRIVATE_UPSTREAMS: 'true',
        GW_LOG_LEVEL: options.logLevel,
        ...(isolated ? { GW_SPEND_DB_URL: withSearchPath(options.pgUrl, isolated.schema) } : {}),
        ...(options.redisUrl ? { GW_REDIS_URL: options.redisUrl } : {}),
      },
      ready: /listening on http:\/\/127\.0\.0\.1:(\d+)/,
      timeoutMs: options.timeoutMs ?? 60_000,
    });
    const origin = originOf(gateway);
    try {
      const key = await provision(origin, options.upstream);
      return {
        id: options.store === 'postgres' ? 'gateway' : 'gateway-pglite',
        process: gateway,
        origin,
        headers: jsonHeaders(key),
        dispose: cleanUp,
      };
    } catch (error) {
      await gateway.stop();
      throw error;
    }
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** `?options=-c search_path=<schema>`: every pooled connection of the gateway lands in the fresh schema. */
function withSearchPath(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

async function provision(origin: string, upstream: string): Promise<string> {
  await admin(origin, 'PUT', '/admin/v1/providers/openai/key', { apiKey: SERVER_KEY, baseUrl: `${upstream}/v1` });
  await admin(origin, 'PUT', '/admin/v1/routing', { defaultProvider: 'openai' });
  const minted = (await admin(origin, 'POST', '/admin/v1/keys', { user: 'bench@example.com', team: 'bench' })) as {
    key: string;
  };
  return minted.key;
}

async function admin(origin: string, method: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`gateway admin ${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}
