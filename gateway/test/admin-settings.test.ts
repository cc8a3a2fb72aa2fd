import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadMigrations } from '@gw/platform';
import { createIsolatedPgDb, createIsolatedRedisCoords, testDbUrl, testRedisUrl } from '@gw/testkit';
import { gatewayMigrationsDir } from '../src/compose.js';
import { mintAdminKey } from './admin-support.js';
import { adminHeaders, bearer, startTestGateway, SwitchableDb, type TestGateway } from './helpers.js';

const gib = 1024 ** 3;

/** Seat overflow bills the organization key, so enabling it needs one stored first. */
async function storeOrganizationKey(gateway: TestGateway): Promise<void> {
  const stored = await gateway.app.inject({
    method: 'PUT',
    url: '/admin/v1/providers/anthropic/key',
    headers: adminHeaders,
    payload: { apiKey: 'sk-ant-org-key-0000', baseUrl: 'http://127.0.0.1:9' },
  });
  expect(stored.statusCode).toBe(200);
}

describe('runtime settings', () => {
  let gateway: TestGateway;
  beforeEach(async () => {
    gateway = await startTestGateway();
  });
  afterEach(async () => {
    await gateway.close();
  });

  const put = (payload: object, headers: Record<string, string> = adminHeaders, url = '/admin/settings') =>
    gateway.app.inject({ method: 'PUT', url, headers, payload });

  it('starts from defaults and merges PUTs: omitted kept, null clears, 1 GiB minimum, unknown fields refused', async () => {
    for (const url of ['/admin/settings', '/admin/v1/settings']) {
      expect((await gateway.app.inject({ method: 'GET', url, headers: adminHeaders })).json()).toEqual({
        contentMode: 'full',
        contentRetentionDays: 30,
        heartbeatTier: 'full',
        seatOverflow: false,
        seatOverflowHourlyMaxRequests: 60,
        storeCapacityBytes: null,
        identityMode: 'enrolled',
        autoSoftUpdates: true,
        updatedAt: null,
        updatedBy: null,
      });
    }
    await storeOrganizationKey(gateway);
    const first = await put({ seatOverflow: true, storeCapacityBytes: 2 * gib, contentMode: 'off' });
    expect(first.statusCode).toBe(200);
    expect(first.headers.deprecation).toBe('true');
    expect(first.json()).toMatchObject({
      seatOverflow: true,
      seatOverflowHourlyMaxRequests: 60,
      storeCapacityBytes: 2 * gib,
      contentMode: 'off',
      updatedBy: 'admin-token',
      updatedAt: new Date(gateway.clock.now()).toISOString(),
    });
    expect(gateway.deps.settings.get()).toMatchObject({ seatOverflow: true, contentMode: 'off' });

    const second = await put({ storeCapacityBytes: null, seatOverflowHourlyMaxRequests: 10 });
    expect(second.json()).toMatchObject({
      seatOverflow: true,
      storeCapacityBytes: null,
      seatOverflowHourlyMaxRequests: 10,
      contentMode: 'off',
    });
    expect((await put({ storeCapacityBytes: gib - 1 })).statusCode).toBe(400);
    expect((await put({ contentMode: 'sometimes' })).statusCode).toBe(400);
    const unknown = await put({ retentionDays: 3 }, adminHeaders, '/admin/v1/settings');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('invalid_request');
    expect(gateway.deps.settings.get().seatOverflowHourlyMaxRequests).toBe(10);
  });

  it('lets settings:write change only the runtime allowlist; every other field needs settings:content', async () => {
    const { key, record } = await mintAdminKey(gateway.app, { scopes: ['settings:write', 'settings:read'] });
    await storeOrganizationKey(gateway);
    const runtime = await put(
      { seatOverflow: true, seatOverflowHourlyMaxRequests: 30 },
      bearer(key),
      '/admin/v1/settings',
    );
    expect(runtime.statusCode).toBe(200);
    expect(runtime.json()).toMatchObject({
      seatOverflow: true,
      seatOverflowHourlyMaxRequests: 30,
      updatedBy: `apikey:${record.id}`,
    });
    for (const payload of [
      { contentMode: 'off' },
      { heartbeatTier: 'minimal' },
      { seatOverflow: false, storeCapacityBytes: 2 * gib },
    ]) {
      const refused = await put(payload, bearer(key), '/admin/v1/settings');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toMatchObject({ code: 'insufficient_scope', required_scope: 'settings:content' });
    }
    expect(gateway.deps.settings.get()).toMatchObject({ seatOverflow: true, contentMode: 'full' });
    expect((await put({ seatOverflow: false }, bearer(key))).statusCode).toBe(403);
  });

  it('sets the identity mode, audits it, and refuses network-trusted in fleet mode', async () => {
    const response = await put({ identityMode: 'network-trusted' }, adminHeaders, '/admin/settings/identity');
    expect(response.statusCode).toBe(200);
    expect(response.json().identityMode).toBe('network-trusted');
    expect(gateway.deps.settings.get().identityMode).toBe('network-trusted');
    gateway.clock.advance(1000);
    expect((await put({ identityMode: 'open' }, adminHeaders, '/admin/settings/identity')).statusCode).toBe(400);
    const feed = (
      await gateway.app.inject({
        method: 'GET',
        url: '/admin/v1/audit/events?category=settings',
        headers: adminHeaders,
      })
    ).json();
    expect(feed.data.map((event: { action: string; outcome: string }) => [event.action, event.outcome])).toEqual([
      ['settings.identity', 'failure'],
      ['settings.identity', 'success'],
    ]);

    const fleet = await startTestGateway({ env: { GW_MULTI_TENANT: 'true' } });
    try {
      const refused = await fleet.app.inject({
        method: 'PUT',
        url: '/admin/settings/identity',
        headers: adminHeaders,
        payload: { identityMode: 'network-trusted' },
      });
      expect(refused.statusCode).toBe(409);
      expect(fleet.deps.settings.get().identityMode).toBe('enrolled');
    } finally {
      await fleet.close();
    }
  });
});

describe('settings across replicas', () => {
  it('invalidates every replica cache through Coord', async () => {
    const isolated = await createIsolatedPgDb(testDbUrl(process.env));
    const coords = createIsolatedRedisCoords(testRedisUrl(process.env));
    const first = await startTestGateway({ db: isolated.db, coord: coords.replica() });
    const second = await startTestGateway({ db: isolated.db, coord: coords.replica() });
    try {
      expect(second.deps.settings.get().seatOverflow).toBe(false);
      await storeOrganizationKey(first);
      const response = await first.app.inject({
        method: 'PUT',
        url: '/admin/v1/settings',
        headers: adminHeaders,
        payload: { seatOverflow: true },
      });
      expect(response.statusCode).toBe(200);
      // The second replica reloads when the first one's invalidation reaches it over Redis.
      await second.deps.settings.reached((settings) => settings.seatOverflow);
      expect(second.deps.settings.get().seatOverflow).toBe(true);
    } finally {
      await first.close();
      await second.close();
      await coords.dispose();
      await isolated.dispose();
    }
  });
});

describe('admin health', () => {
  let optimizer: Server;
  let optimizerUrl: string;
  let expected: number;
  beforeAll(async () => {
    optimizer = createServer((request, response) => {
      response
        .writeHead(request.url === '/health' ? 200 : 404, { 'content-type': 'application/json' })
        .end('{"status":"ok"}');
    });
    await new Promise<void>((resolve) => optimizer.listen(0, '127.0.0.1', resolve));
    optimizerUrl = `http://127.0.0.1:${(optimizer.address() as AddressInfo).port}`;
    expected = (await loadMigrations(gatewayMigrationsDir)).at(-1)?.version ?? 0;
  });
  afterAll(async () => {
    await new Promise((resolve) => optimizer.close(resolve));
  });

  it('reports store, schema applied vs expected, coordination, an unconfigured optimizer and lease fields', async () => {
    const gateway = await startTestGateway();
    try {
      for (const url of ['/admin/health', '/admin/v1/settings/health']) {
        const response = await gateway.app.inject({ method: 'GET', url, headers: adminHeaders });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({
          status: 'ok',
          live: true,
          draining: false,
          store: { kind: 'pg', reachable: true },
          schema: { applied: expected, expected, upToDate: true },
          coordination: { kind: 'in-process', reachable: true },
          optimizer: { configured: false },
          identityReflection: { configured: false },
          leaseStatus: 'none',
          leaseSource: 'none',
          leaseTrust: 'none',
          leaseAcquire: 'not-metered',
        });
      }
    } finally {
      await gateway.close();
    }
  });

  it('probes a configured optimizer and says when it is unreachable', async () => {
    const reachable = await startTestGateway({ env: { GW_OPTIMIZER_URL: optimizerUrl } });
    const unreachable = await startTestGateway({ env: { GW_OPTIMIZER_URL: 'http://127.0.0.1:9' } });
    try {
      expect(
        (await reachable.app.inject({ method: 'GET', url: '/admin/health', headers: adminHeaders })).json().optimizer,
      ).toMatchObject({ configured: true, reachable: true, status: 200 });
      expect(
        (await unreachable.app.inject({ method: 'GET', url: '/admin/health', headers: adminHeaders })).json().optimizer,
      ).toMatchObject({ configured: true, reachable: false, status: null });
    } finally {
      await reachable.close();
      await unreachable.close();
    }
  });

  it('turns degraded when the store is down, still answering the admin token', async () => {
    const isolated = await createIsolatedPgDb(testDbUrl(process.env));
    const db = new SwitchableDb(isolated.db);
    const gateway = await startTestGateway({ db });
    try {
      db.down = true;
      const response = await gateway.app.inject({
        method: 'GET',
        url: '/admin/v1/settings/health',
        headers: adminHeaders,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        status: 'degraded',
        store: { reachable: false },
        schema: { applied: null, expected, upToDate: false },
      });
    } finally {
      db.down = false;
      await gateway.close();
      await isolated.dispose();
    }
  });
});
