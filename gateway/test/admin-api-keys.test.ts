import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedPgDb, createIsolatedRedisCoords, testDbUrl, testRedisUrl } from '@gw/testkit';
import type { Principal } from '../src/admin/principal.js';
import { rolePrincipal } from '../src/admin/principal.js';
import { mintAdminKey, sessionHeaders, startAdminGateway } from './admin-support.js';
import {
  adminHeaders,
  bearer,
  gatewayPerTest,
  startGatewayOnSwitchableStore,
  startTestGateway,
  type SwitchableDb,
  type TestGateway,
} from './helpers.js';

const dayMs = 86_400_000;
const narrowMinter: Principal = {
  kind: 'sso',
  actor: 'sso:narrow@example.com',
  capabilities: new Set(['adminkeys:manage', 'config:read']),
  scopes: new Set(['admin-keys:write', 'keys:read']),
  deploymentOwner: true,
  tenant: null,
  legacyAccess: true,
};

describe('admin API keys', () => {
  const sessions = { security: rolePrincipal('security_admin', { email: 'sec@example.com' }), narrow: narrowMinter };
  const gateway = gatewayPerTest({ start: (db) => startAdminGateway({ db, sessions }) });

  const mint = (payload: object, headers: Record<string, string> = adminHeaders, url = '/admin/v1/admin-keys') =>
    gateway.app.inject({ method: 'POST', url, headers, payload });

  it('returns the raw key once, stores only its hash, and lists metadata only', async () => {
    const response = await mint({ label: 'ci', caps: ['config:read'] }, adminHeaders, '/admin/api-keys');
    expect(response.statusCode).toBe(201);
    expect(response.headers.link).toBe('</admin/v1/admin-keys>; rel="successor-version"');
    const { key, record } = response.json();
    expect(key).toMatch(/^aak_[A-Za-z0-9_-]{43}$/);
    expect(record).toMatchObject({
      label: 'ci',
      caps: ['config:read'],
      scopes: null,
      status: 'active',
      createdBy: 'admin-token',
      tenant: null,
    });
    // Default lifetime 90 days.
    expect(Date.parse(record.expiresAt)).toBe(gateway.clock.now() + 90 * dayMs);
    const dump = JSON.stringify((await gateway.deps.db.query('SELECT * FROM gw_admin_keys')).rows);
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(8));

    for (const url of ['/admin/api-keys', '/admin/v1/admin-keys']) {
      const list = await gateway.app.inject({ method: 'GET', url, headers: adminHeaders });
      expect(list.statusCode).toBe(200);
      expect(list.json().keys).toEqual([record]);
      expect(list.body).not.toMatch(/hash/i);
      expect(list.body).not.toContain(key.slice(8));
    }
    expect(
      (
        await gateway.app.inject({ method: 'GET', url: `/admin/v1/admin-keys/${record.id}`, headers: adminHeaders })
      ).json(),
    ).toEqual(record);
  });

  it('requires exactly one of caps or scopes and one expiry choice', async () => {
    expect((await mint({ caps: ['config:read'], scopes: ['keys:read'] })).statusCode).toBe(400);
    expect((await mint({ label: 'nothing' })).statusCode).toBe(400);
    expect((await mint({ caps: ['config:read'], expiresInDays: 5, neverExpires: true })).statusCode).toBe(400);
    expect((await mint({ caps: ['not:a-capability'] })).statusCode).toBe(400);
    const unknownScope = await mint({ scopes: ['nothing:read'] });
    expect(unknownScope.statusCode).toBe(400);
    expect(unknownScope.json().error).toMatchObject({ code: 'invalid_request', request_id: expect.any(String) });
    expect((await mint({ caps: ['config:read'], neverExpires: true })).json().record.expiresAt).toBeNull();
    expect(Date.parse((await mint({ scopes: ['keys:read'], expiresInDays: 7 })).json().record.expiresAt)).toBe(
      gateway.clock.now() + 7 * dayMs,
    );
  });

  it('refuses ungrantable capabilities and scopes, whoever mints', async () => {
    for (const capability of [
      'content:manage',
      'content:read',
      'identity:manage',
      'update:run',
      'adminkeys:manage',
      'revokedusers:manage',
    ]) {
      const response = await mint({ caps: [capability] });
      expect(response.statusCode, capability).toBe(400);
      expect(response.json().error.message, capability).toContain('cannot be granted');
    }
    for (const scope of [
      'admin-keys:write',
      'traces:content',
      'fleet:content',
      'settings:content',
      'settings:update',
      'sso:write',
      'users:revoke',
      'fleet:direct',
    ]) {
      expect((await mint({ scopes: [scope] })).statusCode, scope).toBe(400);
    }
    expect(
      (await mint({ scopes: ['users:gdpr', 'providers:write', 'fleet:enroll', 'fleet:remediate', 'playground:run'] }))
        .statusCode,
    ).toBe(201);
  });

  it('never grants more than the minter holds', async () => {
    const overScope = await mint({ scopes: ['playground:run'] }, sessionHeaders('narrow'));
    expect(overScope.statusCode).toBe(403);
    expect(overScope.json().error).toMatchObject({ code: 'insufficient_scope', required_scope: 'playground:run' });
    expect(
      (await mint({ scopes: ['keys:write', 'users:gdpr'] }, sessionHeaders('security'))).json().record.createdBy,
    ).toBe('sso:sec@example.com');

    const overCap = await mint({ caps: ['clientkeys:manage'] }, sessionHeaders('narrow'), '/admin/api-keys');
    expect(overCap.statusCode).toBe(403);
    expect((await mint({ caps: ['config:read'] }, sessionHeaders('narrow'), '/admin/api-keys')).statusCode).toBe(201);
    expect((await mint({ scopes: ['keys:write'] }, sessionHeaders('narrow'))).json().error.required_scope).toBe(
      'keys:write',
    );
    expect((await mint({ scopes: ['keys:read'] }, sessionHeaders('narrow'))).statusCode).toBe(201);
  });

  it('rejects a key once it expires', async () => {
    const { key, record } = await mintAdminKey(gateway.app, { scopes: ['keys:read'], expiresInDays: 1 });
    expect((await gateway.app.inject({ method: 'GET', url: '/admin/v1/me', headers: bearer(key) })).statusCode).toBe(
      200,
    );
    gateway.clock.advance(dayMs);
    const expired = await gateway.app.inject({ method: 'GET', url: '/admin/v1/me', headers: bearer(key) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.code).toBe('unauthenticated');
    expect(
      (
        await gateway.app.inject({ method: 'GET', url: `/admin/v1/admin-keys/${record.id}`, headers: adminHeaders })
      ).json().status,
    ).toBe('expired');
  });

  it('revokes through both surfaces with {ok:true} and 404 for an unknown id', async () => {
    const first = await mintAdminKey(gateway.app, { caps: ['config:read'] });
    const second = await mintAdminKey(gateway.app, { scopes: ['keys:read'] });
    expect(
      (
        await gateway.app.inject({ method: 'DELETE', url: `/admin/api-keys/${first.record.id}`, headers: adminHeaders })
      ).json(),
    ).toEqual({ ok: true });
    expect(
      (
        await gateway.app.inject({
          method: 'DELETE',
          url: `/admin/v1/admin-keys/${second.record.id}`,
          headers: adminHeaders,
        })
      ).json(),
    ).toEqual({ ok: true });
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/service-keys', headers: bearer(first.key) })).statusCode,
    ).toBe(401);
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/keys', headers: bearer(second.key) })).statusCode,
    ).toBe(401);
    expect(
      (
        await gateway.app.inject({
          method: 'DELETE',
          url: '/admin/v1/admin-keys/admkey_missing',
          headers: adminHeaders,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('attributes writes made with a key to apikey:<id> in the audit feed', async () => {
    const { key, record } = await mintAdminKey(gateway.app, { scopes: ['keys:write'] });
    const created = await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/keys',
      headers: bearer(key),
      payload: { user: 'ada@example.com', team: 'compilers' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().record.createdBy).toBe(`apikey:${record.id}`);
    const feed = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/audit/events?category=keys', headers: adminHeaders })
    ).json();
    expect(feed.data[0]).toMatchObject({
      actor: `apikey:${record.id}`,
      action: 'keys.create',
      category: 'keys',
      target: created.json().record.id,
      subject: 'ada@example.com',
      outcome: 'success',
      status: 201,
      requestId: created.headers['x-request-id'],
    });
  });
});

describe('admin key store outage', () => {
  let stack: Awaited<ReturnType<typeof startGatewayOnSwitchableStore>>;
  let gateway: TestGateway;
  let db: SwitchableDb;
  beforeAll(async () => {
    stack = await startGatewayOnSwitchableStore();
    ({ gateway, db } = stack);
  });
  afterAll(async () => {
    await stack.close();
  });

  it('fails aak_ keys closed with 503 admin_key_store_unavailable while the admin token keeps working', async () => {
    const { key } = await mintAdminKey(gateway.app, { caps: ['config:read'] });
    db.down = true;
    try {
      const v1 = await gateway.app.inject({ method: 'GET', url: '/admin/v1/me', headers: bearer(key) });
      expect(v1.statusCode).toBe(503);
      expect(v1.json().error).toMatchObject({
        code: 'admin_key_store_unavailable',
        request_id: v1.headers['x-request-id'],
      });
      const legacy = await gateway.app.inject({ method: 'GET', url: '/admin/me', headers: bearer(key) });
      expect(legacy.statusCode).toBe(503);
      expect(legacy.json().error.code).toBe('admin_key_store_unavailable');
      const owner = await gateway.app.inject({ method: 'GET', url: '/admin/v1/me', headers: adminHeaders });
      expect(owner.statusCode).toBe(200);
      expect(owner.json()).toMatchObject({ actor: 'admin-token', deploymentOwner: true });
      expect((await gateway.app.inject({ method: 'GET', url: '/admin/me', headers: adminHeaders })).statusCode).toBe(
        200,
      );
    } finally {
      db.down = false;
    }
    expect((await gateway.app.inject({ method: 'GET', url: '/admin/me', headers: bearer(key) })).statusCode).toBe(200);
  });
});

describe('admin key revocation across replicas', () => {
  it('refuses a revoked admin key on the very next request on every replica', async () => {
    const isolated = await createIsolatedPgDb(testDbUrl(process.env));
    const coords = createIsolatedRedisCoords(testRedisUrl(process.env));
    const first = await startTestGateway({ db: isolated.db, coord: coords.replica() });
    const second = await startTestGateway({ db: isolated.db, coord: coords.replica() });
    try {
      const { key, record } = await mintAdminKey(first.app, { scopes: ['keys:read'] });
      expect((await second.app.inject({ method: 'GET', url: '/admin/v1/keys', headers: bearer(key) })).statusCode).toBe(
        200,
      );
      expect((await first.app.inject({ method: 'GET', url: '/admin/v1/keys', headers: bearer(key) })).statusCode).toBe(
        200,
      );
      expect(
        (await first.app.inject({ method: 'DELETE', url: `/admin/v1/admin-keys/${record.id}`, headers: adminHeaders }))
          .statusCode,
      ).toBe(200);
      expect((await second.app.inject({ method: 'GET', url: '/admin/v1/keys', headers: bearer(key) })).statusCode).toBe(
        401,
      );
      expect((await first.app.inject({ method: 'GET', url: '/admin/v1/keys', headers: bearer(key) })).statusCode).toBe(
        401,
      );
    } finally {
      await first.close();
      await second.close();
      await coords.dispose();
      await isolated.dispose();
    }
  });
});
