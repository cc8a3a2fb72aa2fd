import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '@gw/platform';
import { PgliteDb } from '@gw/platform/pglite';
import { startOpenAiSimulator, type SimulatorHandle, testDbUrl } from '@gw/testkit';
import { adminRequest, e2eAdminToken } from './gateway-stack.js';
import { startService, type RunningService } from './process.js';

/** A TCP proxy in front of Postgres that can be stopped (every connection cut, new ones refused) and started again. */
async function startStoreProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  };
  await listen();
  return {
    get port() {
      return port;
    },
    async stop() {
      const closed = new Promise<void>((resolve) => server?.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    start: listen,
  };
}

/** Waits for `condition` to hold, checking as often as the event loop allows for at most `timeoutMs`. */
async function until(what: string, condition: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const metric = async (gateway: RunningService, name: string) => {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
};

interface Fixture {
  provider: SimulatorHandle;
  dataDir: string;
  env: Record<string, string>;
}

async function configure(gateway: RunningService, provider: SimulatorHandle): Promise<string> {
  const admin = { url: gateway.url, token: e2eAdminToken };
  expect(
    (
      await adminRequest(admin, 'PUT', '/admin/v1/providers/openai/key', {
        apiKey: 'sk-openai-server',
        baseUrl: provider.baseURL,
      })
    ).status,
  ).toBe(200);
  expect((await adminRequest(admin, 'PUT', '/admin/v1/routing', { defaultProvider: 'openai' })).status).toBe(200);
  return (await adminRequest(admin, 'POST', '/admin/v1/keys', { user: 'ada@example.com', team: 'platform' })).body
    .key as string;
}

/** `count` concurrent calls; resolves with the statuses once all are answered. */
async function calls(gateway: RunningService, key: string, count: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
      });
      await response.arrayBuffer();
      return response.status;
    }),
  );
}

async function fixture(env: Record<string, string>): Promise<Fixture> {
  // The provider answers slowly, so calls can be in flight (past the key check) when the store goes away.
  const provider = await startOpenAiSimulator({ apiKey: 'sk-openai-server', latencyMs: 1_500 });
  const dataDir = await mkdtemp(join(tmpdir(), 'gw-spend-crash-'));
  return {
    provider,
    dataDir,
    env: {
      GW_DATA_DIR: dataDir,
      GW_PORT: '0',
      GW_HOST: '127.0.0.1',
      GW_ADMIN_TOKEN: e2eAdminToken,
      GW_ALLOW_PRIVATE_UPSTREAMS: 'true',
      // Info: the tests wait on the spend writer's own lines (a failed write, a replayed journal).
      GW_LOG_LEVEL: 'info',
      ...env,
    },
  };
}

// SIGKILL during a store outage: every answered call's spend row is in the store once the gateway is back.
describe('spend rows survive a crash during a store outage (Postgres)', () => {
  const database = `gw_crash_${randomBytes(6).toString('hex')}`;
  let admin: Db;
  let store: Db;
  let proxy: Awaited<ReturnType<typeof startStoreProxy>>;
  let setup: Fixture;
  let gateway: RunningService | null = null;

  beforeAll(async () => {
    const url = new URL(testDbUrl(process.env));
    admin = await createDb({ url: url.toString(), dataDir: '' });
    await admin.exec(`CREATE DATABASE ${database}`);
    url.pathname = `/${database}`;
    store = await createDb({ url: url.toString(), dataDir: '' });
    proxy = await startStoreProxy({ host: url.hostname, port: Number(url.port || 5432) });
    setup = await fixture({
      GW_SPEND_DB_URL: `postgres://${url.username ? `${url.username}@` : ''}127.0.0.1:${proxy.port}/${database}`,
      GW_KEYSTORE_KEY: 'ab'.repeat(32),
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop('SIGKILL');
    await proxy?.stop();
    await store?.close();
    await admin?.exec(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.close();
    await setup?.provider.close();
    if (setup) await rm(setup.dataDir, { recursive: true, force: true });
  });

  it('replays the journal after a restart: one row per answered call, none twice', async () => {
    gateway = await startService('gateway/dist/main.js', setup.env, 120_000);
    const key = await configure(gateway, setup.provider);
    const before = await calls(gateway, key, 5);

    const inFlight = calls(gateway, key, 20);
    await setup.provider.waitForRequests(25, 60_000);
    await proxy.stop();
    const during = await inFlight;
    // Once every call is answered, one more failed write means the writer has met the outage with all of them: the
    // gateway logs each failed write, so wait for the next such line.
    await gateway.logged(/spend write failed; will retry/, gateway.output().length);
    expect(await gateway.stop('SIGKILL')).toBeNull();

    await proxy.start();
    gateway = await startService('gateway/dist/main.js', setup.env, 120_000);
    const answered = before.length + during.length;
    const rows = async () =>
      Number((await store.query<{ count: string }>('SELECT count(*) AS count FROM gw_spend')).rows[0]?.count);
    // Replay runs at start and logs what it wrote; wait for that line, then compare.
    await gateway.logged(/spilled spend records replayed into the store/);
    expect(await rows()).toBe(answered);
    expect(during.every((status) => status === 200)).toBe(true);
  }, 240_000);
});

// The embedded store: a row written before SIGKILL is still there when the data folder is opened again.
describe('spend rows survive a crash on the embedded store (PGlite)', () => {
  let setup: Fixture;
  let gateway: RunningService | null = null;

  beforeAll(async () => {
    setup = await fixture({});
  });
  afterAll(async () => {
    await gateway?.stop('SIGKILL');
    await setup?.provider.close();
    if (setup) await rm(setup.dataDir, { recursive: true, force: true });
  });

  it('keeps every written row across SIGKILL', async () => {
    gateway = await startService('gateway/dist/main.js', setup.env, 120_000);
    const key = await configure(gateway, setup.provider);
    const answered = (await calls(gateway, key, 20)).length;
    // The writer flushes at most 200 ms after an answer; SIGKILL once nothing waits in memory. A successful write
    // logs nothing, and the embedded store cannot be opened by a second process while the gateway runs, so the
    // gateway's own queue metrics are the only signal: read as often as the event loop allows, bounded.
    await until(
      'the spend queue to empty',
      async () =>
        (await metric(gateway as RunningService, 'gw_spend_queue_depth')) === 0 &&
        (await metric(gateway as RunningService, 'gw_spend_spilled_total')) === 0,
    );
    expect(await gateway.stop('SIGKILL')).toBeNull();
    gateway = null;
    const store = await PgliteDb.open(join(setup.dataDir, 'gateway-store'));
    try {
      expect(
        Number((await store.query<{ count: string }>('SELECT count(*) AS count FROM gw_spend')).rows[0]?.count),
      ).toBe(answered);
    } finally {
      await store.close();
    }
  }, 240_000);
});
