import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIsolatedPgDb, createMemoryPgliteDb, testDbUrl, type TestDb } from '@gw/platform';
import { rolePrincipal } from '../src/admin/principal.js';
import { bearer, sessionHeaders, startAdminGateway } from './admin-support.js';
import { adminHeaders, type TestGateway } from './helpers.js';

const stores: Array<[string, () => Promise<TestDb>]> = [
  ['Postgres', () => createIsolatedPgDb(testDbUrl(process.env))],
  ['PGlite', () => createMemoryPgliteDb()],
];

const sessions = {
  acme: rolePrincipal('owner', { email: 'owner@acme.example', tenant: 'acme' }),
  beta: rolePrincipal('owner', { email: 'owner@beta.example', tenant: 'beta' }),
};

interface StoredKey {
  tenant: string | null;
  key_hash: string;
  user_id: string | null;
  label: string | null;
  revoked_at: Date | string | null;
}

function gatewayOn(factory: () => Promise<TestDb>, env: Record<string, string>) {
  const state = {} as { store: TestDb; gateway: TestGateway };
  beforeEach(async () => {
    state.store = await factory();
    state.gateway = await startAdminGateway({ db: state.store.db, sessions, env });
  });
  afterEach(async () => {
    await state.gateway.close();
    await state.store.dispose();
  });
  return state;
}

describe.each(stores)('fleet mode key isolation on %s', (_name, factory) => {
  const state = gatewayOn(factory, { GW_MULTI_TENANT: 'true' });
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
    state.gateway.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const mint = async (headers: Record<string, string>, payload: Record<string, unknown>, url = '/admin/v1/keys') => {
    const response = await call('POST', url, headers, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ key: string; record: { id: string; tenant: string | null } }>();
  };
  const stored = async (id: string) => (await state.gateway.deps.db.query<StoredKey>('SELECT tenant, key_hash, user_id, label, revoked_at FROM gw_keys WHERE id = $1', [id])).rows[0];
  const listed = async (headers: Record<string, string>, url = '/admin/v1/keys') => (await call('GET', url, headers)).json<{ keys: Array<{ id: string }> }>().keys.map((key) => key.id);

  it('records the minting principal’s tenant on the key, null for a deployment principal', async () => {
    const client = await mint(sessionHeaders('acme'), { user: 'dev@acme.example', team: 'apps' });
    const service = await mint(sessionHeaders('acme'), { name: 'ci', team: 'apps' }, '/admin/service-keys');
    const deployment = await mint(adminHeaders, { user: 'ops@example.com', team: 'ops' });
    expect([client.record.tenant, service.record.tenant, deployment.record.tenant]).toEqual(['acme', 'acme', null]);
    expect([(await stored(client.record.id)).tenant, (await stored(service.record.id)).tenant, (await stored(deployment.record.id)).tenant]).toEqual(['acme', 'acme', null]);
    expect((await call('GET', `/admin/v1/keys/${client.record.id}`, sessionHeaders('acme'))).json()).toMatchObject({ id: client.record.id, tenant: 'acme' });
  });

  it('answers another tenant’s key as not found on every key operation, and changes nothing', async () => {
    const { key, record } = await mint(sessionHeaders('acme'), { user: 'dev@acme.example', team: 'apps', label: 'laptop' });
    const own = await mint(sessionHeaders('beta'), { name: 'etl', team: 'data', type: 'service' });
    const before = await stored(record.id);
    const beta = sessionHeaders('beta');

    expect(await listed(beta)).toEqual([own.record.id]);
    expect(await listed(beta, '/admin/client-keys')).toEqual([]);
    expect(await listed(beta, '/admin/service-keys')).toEqual([own.record.id]);
    const attempts = [
      await call('GET', `/admin/v1/keys/${record.id}`, beta),
      await call('PATCH', `/admin/v1/keys/${record.id}`, beta, { label: 'mine now' }),
      await call('POST', `/admin/v1/keys/${record.id}/rotate`, beta),
      await call('DELETE', `/admin/v1/keys/${record.id}`, beta),
    ];
    for (const response of attempts) {
      // Exactly what a key that does not exist answers: the key's existence is not revealed.
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'not_found', message: `key ${record.id} not found`, request_id: response.headers['x-request-id'] } });
    }
    for (const url of [`/admin/client-keys/${record.id}`, `/admin/service-keys/${record.id}`]) {
      const legacy = await call('DELETE', url, beta);
      expect(legacy.statusCode, url).toBe(404);
      expect(legacy.json(), url).toEqual({ error: { code: 'not_found', message: `key ${record.id} not found` } });
    }
    expect(await stored(record.id)).toEqual(before);
    expect((await state.gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(key) })).statusCode).toBe(200);

    // The owning tenant still reaches it.
    const acme = sessionHeaders('acme');
    expect(await listed(acme)).toEqual([record.id]);
    expect((await call('PATCH', `/admin/v1/keys/${record.id}`, acme, { label: 'desktop' })).json()).toMatchObject({ label: 'desktop', tenant: 'acme' });
    expect((await call('POST', `/admin/v1/keys/${record.id}/rotate`, acme)).statusCode).toBe(200);
    expect((await call('DELETE', `/admin/v1/keys/${record.id}`, acme)).json()).toEqual({ ok: true });
    expect((await stored(record.id)).revoked_at).not.toBeNull();
  });

  it('keeps deployment-level keys from tenant principals and lets deployment principals reach every key', async () => {
    const deployment = await mint(adminHeaders, { user: 'ops@example.com', team: 'ops' });
    const acmeKey = await mint(sessionHeaders('acme'), { user: 'dev@acme.example', team: 'apps' });
    const betaKey = await mint(sessionHeaders('beta'), { user: 'dev@beta.example', team: 'apps' });
    expect(await listed(sessionHeaders('acme'))).toEqual([acmeKey.record.id]);
    expect((await call('GET', `/admin/v1/keys/${deployment.record.id}`, sessionHeaders('acme'))).statusCode).toBe(404);
    expect((await call('DELETE', `/admin/v1/keys/${deployment.record.id}`, sessionHeaders('acme'))).statusCode).toBe(404);
    expect((await listed(adminHeaders)).sort()).toEqual([deployment.record.id, acmeKey.record.id, betaKey.record.id].sort());
    expect((await call('PATCH', `/admin/v1/keys/${betaKey.record.id}`, adminHeaders, { label: 'audited' })).json()).toMatchObject({ label: 'audited', tenant: 'beta' });
    expect((await call('DELETE', `/admin/v1/keys/${acmeKey.record.id}`, adminHeaders)).json()).toEqual({ ok: true });
  });

  it('reaches a user on the GDPR routes only when every key the user holds is the tenant’s', async () => {
    const { record } = await mint(sessionHeaders('acme'), { user: 'dev@acme.example', team: 'apps', label: 'laptop' });
    const before = await stored(record.id);
    const user = encodeURIComponent('dev@acme.example');
    for (const [method, url] of [['GET', `/admin/v1/users/${user}/export`], ['DELETE', `/admin/v1/users/${user}/data`], ['GET', `/admin/gdpr/users/${user}/export`]] as const) {
      const response = await call(method, url, sessionHeaders('beta'));
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error, url).toMatchObject({ code: 'not_found', message: 'user dev@acme.example not found' });
    }
    expect(await stored(record.id)).toEqual(before);

    const exported = await call('GET', `/admin/v1/users/${user}/export`, sessionHeaders('acme'));
    expect(exported.statusCode).toBe(200);
    expect(exported.json().keys.map((key: { id: string }) => key.id)).toEqual([record.id]);
    expect((await call('GET', `/admin/v1/users/${user}/export`, adminHeaders)).statusCode).toBe(200);

    // A user holding keys of two tenants is reached by deployment principals only.
    await mint(sessionHeaders('beta'), { user: 'dev@acme.example', team: 'contract' });
    expect((await call('GET', `/admin/v1/users/${user}/export`, sessionHeaders('acme'))).statusCode).toBe(404);
    expect((await call('DELETE', `/admin/v1/users/${user}/data`, sessionHeaders('acme'))).statusCode).toBe(404);
    expect(await stored(record.id)).toEqual(before);
    const erased = await call('DELETE', `/admin/v1/users/${user}/data`, adminHeaders);
    expect(erased.statusCode).toBe(200);
    expect(erased.json().erased.keys).toBe(2);
  });
});

describe('outside fleet mode', () => {
  const state = gatewayOn(stores[0][1], {});

  it('lets a tenant-bound principal reach every key, as before', async () => {
    const minted = await state.gateway.app.inject({ method: 'POST', url: '/admin/v1/keys', headers: sessionHeaders('acme'), payload: { user: 'dev@acme.example', team: 'apps' } });
    const { record } = minted.json<{ record: { id: string; tenant: string | null } }>();
    expect(record.tenant).toBe('acme');
    const beta = sessionHeaders('beta');
    expect((await state.gateway.app.inject({ method: 'GET', url: '/admin/v1/keys', headers: beta })).json().keys.map((key: { id: string }) => key.id)).toEqual([record.id]);
    expect((await state.gateway.app.inject({ method: 'GET', url: `/admin/v1/keys/${record.id}`, headers: beta })).statusCode).toBe(200);
    expect((await state.gateway.app.inject({ method: 'GET', url: `/admin/v1/users/${encodeURIComponent('dev@acme.example')}/export`, headers: beta })).statusCode).toBe(200);
    expect((await state.gateway.app.inject({ method: 'DELETE', url: `/admin/v1/keys/${record.id}`, headers: beta })).json()).toEqual({ ok: true });
  });
});
