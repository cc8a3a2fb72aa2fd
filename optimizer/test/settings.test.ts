import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Db } from '@gw/platform';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { settingsResponseSchema } from '@gw/contracts';
import { migrateOptimizer } from '../src/stash/migrations.js';
import { adminAuth, contentKey, testApp } from './support/test-app.js';

type App = Awaited<ReturnType<typeof testApp>>['app'];

let store: TestDb;
beforeAll(async () => {
  store = await createMemoryPgliteDb();
});
afterAll(async () => {
  await store.dispose();
});

function put(app: App, payload: unknown) {
  return app.inject({
    method: 'PUT',
    url: '/admin/optimizer/settings',
    headers: adminAuth,
    payload: payload as Record<string, unknown>,
  });
}

const iso = (epochMs: number) => new Date(epochMs).toISOString();

describe('/admin/optimizer/settings', () => {
  it('accepts the bare config or {config} and answers config plus telemetry blocks', async () => {
    const { app } = await testApp();
    const bare = await put(app, { guard: { enabled: false }, requireReversibleElision: true });
    expect(bare.statusCode).toBe(200);
    expect(bare.json().config).toEqual({ guard: { enabled: false }, requireReversibleElision: true });
    const wrapped = await put(app, { config: { holdout: { enabled: true, fraction: 0.1, windowSeconds: 3600 } } });
    expect(wrapped.json().config).toEqual({ holdout: { enabled: true, fraction: 0.1, windowSeconds: 3600 } });
    const view = (await app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth })).json();
    expect(settingsResponseSchema.parse(view)).toBeTruthy();
    expect(view).toMatchObject({
      census: { requests: 0, toolOutputTokens: 0, classes: {} },
      cacheLint: { regions: [] },
      holdout: { enabled: true, scope: 'replica' },
      guard: { enabled: true },
    });
  });

  it('rejects unknown keys and out-of-range values with 400', async () => {
    const { app } = await testApp();
    expect((await put(app, { strategy: [] })).statusCode).toBe(400);
    expect((await put(app, { holdout: { enabled: true, fraction: 2, windowSeconds: 10 } })).statusCode).toBe(400);
    expect((await put(app, { rollouts: { agentContinuationV1ActivateAt: 'tomorrow' } })).statusCode).toBe(400);
  });

  it('requires the admin bearer and stays shut without GW_ADMIN_TOKEN', async () => {
    const { app } = await testApp();
    expect((await app.inject({ method: 'GET', url: '/admin/optimizer/settings' })).statusCode).toBe(401);
    const closed = await testApp({ config: { GW_ADMIN_TOKEN: undefined } });
    expect(
      (await closed.app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth })).statusCode,
    ).toBe(401);
  });

  it('applies the activation rule: 60-second lead, UTC normalization, immutable once set', async () => {
    const { app, clock } = await testApp();
    const tooSoon = await put(app, { rollouts: { agentContinuationV1ActivateAt: iso(clock.now() + 59_000) } });
    expect(tooSoon.statusCode).toBe(400);
    expect(tooSoon.json().error.code).toBe('activation_too_soon');
    // 2026-01-15T12:02:00Z spelled with a +02:00 offset and a fraction.
    const set = await put(app, { rollouts: { agentContinuationV1ActivateAt: '2026-01-15T14:02:00.000+02:00' } });
    expect(set.statusCode).toBe(200);
    expect(set.json().config.rollouts).toEqual({ agentContinuationV1ActivateAt: '2026-01-15T12:02:00.000Z' });
    // Omitted keeps it; the same instant in another spelling is accepted; anything else is refused.
    expect((await put(app, { guard: { enabled: true } })).json().config.rollouts.agentContinuationV1ActivateAt).toBe(
      '2026-01-15T12:02:00.000Z',
    );
    expect((await put(app, { rollouts: { agentContinuationV1ActivateAt: '2026-01-15T12:02:00Z' } })).statusCode).toBe(
      200,
    );
    const moved = await put(app, { rollouts: { agentContinuationV1ActivateAt: '2026-01-15T13:00:00Z' } });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().error.code).toBe('activation_immutable');
    expect((await put(app, { rollouts: { agentContinuationV1ActivateAt: null } })).statusCode).toBe(409);
  });

  it('refuses an activation instant on a day or at an hour that does not exist, set or not (400, nothing stored)', async () => {
    const { app } = await testApp();
    for (const impossible of [
      '2026-02-30T00:00:00Z',
      '2026-01-15T24:00:00Z',
      '2026-04-31T12:00:00Z',
      '2027-02-29T12:00:00Z',
      '2026-01-15T12:60:00Z',
      '2026-01-15T12:00:00+24:00',
    ]) {
      const refused = await put(app, { rollouts: { agentContinuationV1ActivateAt: impossible } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('invalid_request');
    }
    expect(
      (await app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth })).json().config,
    ).toEqual({});
    // A leap day that exists is taken (the test clock reads 2026-01-15); once set, a malformed instant is still a
    // 400, not an immutability 409.
    expect(
      (await put(app, { rollouts: { agentContinuationV1ActivateAt: '2028-02-29T00:00:00Z' } })).json().config.rollouts,
    ).toEqual({ agentContinuationV1ActivateAt: '2028-02-29T00:00:00.000Z' });
    expect((await put(app, { rollouts: { agentContinuationV1ActivateAt: '2028-02-30T00:00:00Z' } })).statusCode).toBe(
      400,
    );
  });

  it('checks the admin bearer before reading the body, so a caller without it learns nothing of the schema', async () => {
    const { app } = await testApp();
    const calls = [
      { method: 'PUT' as const, url: '/admin/optimizer/settings', payload: { bogus: 1 } },
      { method: 'PUT' as const, url: '/admin/optimizer/settings', payload: '{not json' },
      { method: 'POST' as const, url: '/admin/optimizer/bootstrap-durable', payload: { spendDbUrl: 'mysql://x' } },
    ];
    for (const call of calls) {
      for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }]) {
        const response = await app.inject({ ...call, headers: { ...headers, 'content-type': 'application/json' } });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({
          error: { code: 'unauthorized', message: 'missing or invalid bearer token' },
        });
      }
    }
    expect((await put(app, { bogus: 1 })).statusCode).toBe(400);
  });

  it('answers within a bound from this replica’s own shadow counts when the shared store never answers', async () => {
    await migrateOptimizer(store.db);
    let hang = false;
    const hanging: Db = {
      kind: 'pg',
      query: (sql, params) => (hang ? new Promise(() => undefined) : store.db.query(sql, params)),
      transaction: (work) => store.db.transaction(work),
      ping: () => store.db.ping(),
      exec: async () => undefined,
      close: async () => undefined,
    };
    const { app } = await testApp({ db: hanging });
    hang = true;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const pending = app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth });
      await vi.advanceTimersByTimeAsync(2_000);
      const response = await pending;
      expect(response.statusCode).toBe(200);
      expect(response.json().semanticCacheShadow).toEqual({
        lookups: 0,
        hits: 0,
        strictPrecision: null,
        durable: false,
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 400, never 500, for a config string the shared store cannot hold, and keeps the config it had', async () => {
    await migrateOptimizer(store.db);
    const { app } = await testApp({ db: store.db });
    const before = (await app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth })).json()
      .config;
    for (const user of ['a\u0000b', '\uD800']) {
      const refused = await put(app, { strategies: [{ kind: 'json_minify', enabled: false, user }] });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('invalid_request');
    }
    expect(
      (await app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth })).json().config,
    ).toEqual(before);
  });

  it('shares config across replicas through the durable store', async () => {
    await migrateOptimizer(store.db);
    const first = await testApp({ db: store.db });
    await put(first.app, {
      strategies: [{ kind: 'json_minify', enabled: false, endpoint: '/v1/messages' }],
      rollouts: { agentContinuationV1ActivateAt: iso(first.clock.now() + 120_000) },
    });
    const second = await testApp({ db: store.db, clock: first.clock });
    const view = (
      await second.app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth })
    ).json();
    expect(view.config.strategies).toEqual([{ kind: 'json_minify', enabled: false, endpoint: '/v1/messages' }]);
    // The second replica cannot move the activation the first one set.
    expect(
      (await put(second.app, { rollouts: { agentContinuationV1ActivateAt: iso(first.clock.now() + 600_000) } }))
        .statusCode,
    ).toBe(409);
  });
});

describe('POST /admin/optimizer/bootstrap-durable', () => {
  it('moves an unconfigured optimizer onto the pushed store and reports durable', async () => {
    const opened: string[] = [];
    const { app } = await testApp({
      config: { GW_CONTENT_KEY: undefined },
      openDb: async (url) => {
        opened.push(url);
        await migrateOptimizer(store.db);
        return store.db;
      },
    });
    expect((await app.inject({ method: 'GET', url: '/health' })).json().retrievalStore.state).toBe('unconfigured');
    const body = {
      spendDbUrl: 'postgres://gw@db:5432/gw',
      contentKey: contentKey,
      contentMode: 'full',
      allowPlaintext: 'false',
    };
    const response = await app.inject({
      method: 'POST',
      url: '/admin/optimizer/bootstrap-durable',
      headers: adminAuth,
      payload: body,
    });
    expect(response.json()).toEqual({ durable: true });
    expect(opened).toEqual(['postgres://gw@db:5432/gw']);
    expect((await app.inject({ method: 'GET', url: '/health' })).json().retrievalStore).toEqual({
      state: 'ready',
      durable: 'pglite',
    });
    const off = await app.inject({
      method: 'POST',
      url: '/admin/optimizer/bootstrap-durable',
      headers: adminAuth,
      payload: { ...body, contentMode: 'off' },
    });
    expect(off.json()).toEqual({ durable: false });
    expect((await app.inject({ method: 'GET', url: '/health' })).json().retrievalStore.state).toBe('content_disabled');
  });

  it('validates the body and answers 503 without echoing the URL when the store cannot be opened', async () => {
    const { app } = await testApp({ openDb: () => Promise.reject(new Error('ECONNREFUSED postgres://secret@db')) });
    const invalid = await app.inject({
      method: 'POST',
      url: '/admin/optimizer/bootstrap-durable',
      headers: adminAuth,
      payload: { spendDbUrl: 'mysql://x', contentMode: 'full', allowPlaintext: 'false' },
    });
    expect(invalid.statusCode).toBe(400);
    const failed = await app.inject({
      method: 'POST',
      url: '/admin/optimizer/bootstrap-durable',
      headers: adminAuth,
      payload: { spendDbUrl: 'postgres://secret@db/gw', contentMode: 'full', allowPlaintext: 'false' },
    });
    expect(failed.statusCode).toBe(503);
    expect(failed.body).not.toContain('secret');
  });
});
