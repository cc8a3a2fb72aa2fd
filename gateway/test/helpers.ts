import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import type { z } from 'zod';
import { ManualClock, MemoryCoord, createLogger, type Coord, type Db, type Queryable } from '@gw/platform';
import { createIsolatedPgDb, createMemoryPgliteDb, testDbUrl, type TestDb } from '@gw/testkit';
import { buildApp } from '../src/app.js';
import { composeGateway, gatewayMigrationsDir } from '../src/compose.js';
import { readConfig } from '../src/config.js';
import type { GatewayDeps } from '../src/deps.js';
import type { KeyRecord, clientKeyCreateBody, serviceKeyCreateBody } from '../src/identity/keys/key.schema.js';

export const adminToken = 'test-admin-token-0123456789';
export const adminHeaders = { authorization: `Bearer ${adminToken}` };
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** The two stores the gateway runs on: a store-facing test runs on each with `describe.each(testStores)`. */
export const testStores: ReadonlyArray<readonly [name: string, open: () => Promise<TestDb>]> = [
  ['Postgres', () => createIsolatedPgDb(testDbUrl(process.env))],
  // Migrated as the image's template is: each test's gateway then has nothing left to apply on PGlite.
  ['PGlite', () => createMemoryPgliteDb([{ service: 'gateway', directory: gatewayMigrationsDir }])],
];

export interface TestGateway {
  app: FastifyInstance;
  deps: GatewayDeps;
  clock: ManualClock;
  logs: string[];
  close(): Promise<void>;
}

/** A gateway on an isolated Postgres schema (or a given db/coord: replicas share them) with captured logs. */
export async function startTestGateway(
  options: { db?: Db; coord?: Coord; env?: Record<string, string>; clock?: ManualClock } = {},
): Promise<TestGateway> {
  const isolated = options.db ? null : await createIsolatedPgDb(testDbUrl(process.env));
  const db = options.db ?? (isolated as NonNullable<typeof isolated>).db;
  const clock = options.clock ?? new ManualClock(Date.UTC(2026, 10, 23, 12));
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  // A data folder of its own: the spend journal in it is replayed by whichever gateway starts on it, so gateways of
  // different tests (on different stores) must never share one.
  const ownDataDir = options.env?.GW_DATA_DIR === undefined ? mkdtempSync(join(tmpdir(), 'gw-test-')) : null;
  const config = readConfig({
    GW_ADMIN_TOKEN: adminToken,
    GW_KEYSTORE_KEY: 'ab'.repeat(32),
    GW_ALLOW_PRIVATE_UPSTREAMS: 'true',
    GW_LOG_LEVEL: 'info',
    ...(ownDataDir ? { GW_DATA_DIR: ownDataDir } : {}),
    ...options.env,
  });
  const logger = createLogger({ name: 'gw-gateway-test', destination, level: config.GW_LOG_LEVEL });
  const deps = await composeGateway(config, logger, { db, coord: options.coord ?? new MemoryCoord({ clock }), clock });
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    clock,
    logs,
    close: async () => {
      await app.close();
      if (!options.coord) await deps.coord.close();
      if (isolated) await isolated.dispose();
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh store and gateway for each test of the enclosing `describe`, closed after it: `open` makes the store (an
 * isolated Postgres schema unless given), `start` the gateway on it (a plain test gateway unless given). The answer
 * stands for the current test's gateway.
 */
export function gatewayPerTest(
  options: { open?: () => Promise<TestDb>; start?: (db: Db) => Promise<TestGateway> } = {},
): Omit<TestGateway, 'close'> {
  const open = options.open ?? testStores[0][1];
  const start = options.start ?? ((db: Db) => startTestGateway({ db }));
  let current: { gateway: TestGateway; store: TestDb } | undefined;
  beforeEach(async () => {
    const store = await open();
    try {
      current = { gateway: await start(store.db), store };
    } catch (error) {
      await store.dispose();
      throw error;
    }
  });
  afterEach(async () => {
    const started = current;
    current = undefined;
    await started?.gateway.close();
    await started?.store.dispose();
  });
  const gateway = () => {
    if (!current) throw new Error('the gateway runs only inside a test');
    return current.gateway;
  };
  return {
    get app() {
      return gateway().app;
    },
    get deps() {
      return gateway().deps;
    },
    get clock() {
      return gateway().clock;
    },
    get logs() {
      return gateway().logs;
    },
  };
}

export interface MintedKey {
  key: string;
  record: KeyRecord;
}

async function mintKey(
  app: FastifyInstance,
  body: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<MintedKey> {
  const response = await app.inject({ method: 'POST', url: '/admin/v1/keys', headers, payload: body });
  if (response.statusCode !== 201) throw new Error(`mint failed: ${response.statusCode} ${response.body}`);
  return response.json<MintedKey>();
}

export function mintClientKey(
  app: FastifyInstance,
  body: z.input<typeof clientKeyCreateBody> = { user: 'dev@example.com', team: 'platform' },
  headers: Record<string, string> = adminHeaders,
) {
  return mintKey(app, body, headers);
}

export function mintServiceKey(
  app: FastifyInstance,
  body: z.input<typeof serviceKeyCreateBody> = { name: 'ci-bot', team: 'platform' },
  headers: Record<string, string> = adminHeaders,
) {
  return mintKey(app, { type: 'service', ...body }, headers);
}

export async function revokeKey(
  app: FastifyInstance,
  id: string,
  headers: Record<string, string> = adminHeaders,
): Promise<void> {
  const response = await app.inject({ method: 'DELETE', url: `/admin/v1/keys/${id}`, headers });
  if (response.statusCode !== 200) throw new Error(`revoke failed: ${response.statusCode} ${response.body}`);
}

/** A `Db` that can be switched off, standing in for a Postgres outage without stopping the shared server. */
export class SwitchableDb implements Db {
  down = false;
  constructor(private readonly inner: Db) {}
  get kind() {
    return this.inner.kind;
  }
  private check() {
    // What pg throws when the server is down: Node's connection error, with its errno code.
    if (this.down)
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
        code: 'ECONNREFUSED',
        syscall: 'connect',
      });
  }
  async query<Row extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]) {
    this.check();
    return this.inner.query<Row>(sql, params);
  }
  async exec(sql: string) {
    this.check();
    return this.inner.exec(sql);
  }
  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    this.check();
    return this.inner.transaction(work);
  }
  async ping() {
    return !this.down && this.inner.ping();
  }
  async close() {
    return this.inner.close();
  }
}

/** A gateway on its own isolated schema, reached through a `SwitchableDb` an outage test can take down. */
export async function startGatewayOnSwitchableStore(): Promise<{
  gateway: TestGateway;
  db: SwitchableDb;
  store: TestDb;
  close(): Promise<void>;
}> {
  const store = await createIsolatedPgDb(testDbUrl(process.env));
  const db = new SwitchableDb(store.db);
  const gateway = await startTestGateway({ db });
  return {
    gateway,
    db,
    store,
    close: async () => {
      await gateway.close();
      await store.dispose();
    },
  };
}
