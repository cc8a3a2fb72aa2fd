import { describe, expect, it } from 'vitest';
import type { TestDb } from '@gw/testkit';
import { rolePrincipal } from '../src/admin/principal.js';
import { sessionHeaders, startAdminGateway } from './admin-support.js';
import {
  adminHeaders,
  bearer,
  gatewayPerTest,
  mintClientKey,
  mintServiceKey,
  testStores,
  type MintedKey,
} from './helpers.js';

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

const gatewayOn = (open: () => Promise<TestDb>, env: Record<string, string>) =>
  gatewayPerTest({ open, start: (db) => startAdminGateway({ db, sessions, env }) });

describe.each(testStores)('fleet mode key isolation on %s', (_name, open) => {
  const gateway = gatewayOn(open, { GW_MULTI_TENANT: 'true' });
  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: Record<string, unknown>,
  ) => gateway.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const stored = async (id: string) =>
    (
      await gateway.deps.db.query<StoredKey>(
        'SELECT tenant, key_hash, user_id, label, revoked_at FROM gw_keys WHERE id = $1',
        [id],
      )
    ).rows[0];
  const listed = async (headers: Record<string, string>, url = '/admin/v1/keys') =>
    (await call('GET', url, headers)).json<{ keys: Array<{ id: string }> }>().keys.map((key) => key.id);

  it('records the minting principal’s tenant on the key, null for a deployment principal', async () => {
    const client = await mintClientKey(gateway.app, { user: 'dev@acme.example', team: 'apps' }, sessionHeaders('acme'));
    const legacy = await call('POST', '/admin/service-keys', sessionHeaders('acme'), { name: 'ci', team: 'apps' });
    expect(legacy.statusCode, legacy.body).toBe(201);
    const service = legacy.json<MintedKey>();
    const deployment = await mintClientKey(gateway.app, { user: 'ops@example.com', team: 'ops' });
    expect([client.record.tenant, service.record.tenant, deployment.record.tenant]).toEqual(['acme', 'acme', null]);
    expect([
      (await stored(client.record.id)).tenant,
      (await stored(service.record.id)).tenant,
      (await stored(deployment.record.id)).tenant,
    ]).toEqual(['acme', 'acme', null]);
    expect((await call('GET', `/admin/v1/keys/${client.record.id}`, sessionHeaders('acme'))).json()).toMatchObject({
      id: client.record.id,
      tenant: 'acme',
    });
  });

  it('answers another tenant’s key as not found on every key operation, and changes nothing', async () => {
    const { key, record } = await mintClientKey(
      gateway.app,
      { user: 'dev@acme.example', team: 'apps', label: 'laptop' },
      sessionHeaders('acme'),
    );
    const own = await mintServiceKey(gateway.app, { name: 'etl', team: 'data' }, sessionHeaders('beta'));
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
      expect(response.json()).toEqual({
        error: {
          code: 'not_found',
          message: `key ${record.id} not found`,
          request_id: response.headers['x-request-id'],
        },
      });
    }
    for (const url of [`/admin/client-keys/${record.id}`, `/admin/service-keys/${record.id}`]) {
      const legacy = await call('DELETE', url, beta);
      expect(legacy.statusCode, url).toBe(404);
      expect(legacy.json(), url).toEqual({ error: { code: 'not_found', message: `key ${record.id} not found` } });
    }
    expect(await stored(record.id)).toEqual(before);
    expect((await gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(key) })).statusCode).toBe(200);

    // The owning tenant still reaches it.
    const acme = sessionHeaders('acme');
    expect(await listed(acme)).toEqual([record.id]);
    expect((await call('PATCH', `/admin/v1/keys/${record.id}`, acme, { label: 'desktop' })).json()).toMatchObject({
      label: 'desktop',
      tenant: 'acme',
    });
    expect((await call('POST', `/admin/v1/keys/${record.id}/rotate`, acme)).statusCode).toBe(200);
    expect((await call('DELETE', `/admin/v1/keys/${record.id}`, acme)).json()).toEqual({ ok: true });
    expect((await stored(record.id)).revoked_at).not.toBeNull();
  });

  it('keeps deployment-level keys from tenant principals and lets deployment principals reach every key', async () => {
    const deployment = await mintClientKey(gateway.app, { user: 'ops@example.com', team: 'ops' });
    const acmeKey = await mintClientKey(
      gateway.app,
      { user: 'dev@acme.example', team: 'apps' },
      sessionHeaders('acme'),
    );
    const betaKey = await mintClientKey(
      gateway.app,
      { user: 'dev@beta.example', team: 'apps' },
      sessionHeaders('beta'),
    );
    expect(await listed(sessionHeaders('acme'))).toEqual([acmeKey.record.id]);
    expect((await call('GET', `/admin/v1/keys/${deployment.record.id}`, sessionHeaders('acme'))).statusCode).toBe(404);
    expect((await call('DELETE', `/admin/v1/keys/${deployment.record.id}`, sessionHeaders('acme'))).statusCode).toBe(
      404,
    );
    expect((await listed(adminHeaders)).sort()).toEqual(
      [deployment.record.id, acmeKey.record.id, betaKey.record.id].sort(),
    );
    expect(
      (await call('PATCH', `/admin/v1/keys/${betaKey.record.id}`, adminHeaders, { label: 'audited' })).json(),
    ).toMatchObject({ label: 'audited', tenant: 'beta' });
    expect((await call('DELETE', `/admin/v1/keys/${acmeKey.record.id}`, adminHeaders)).json()).toEqual({ ok: true });
  });

  it('reaches a user on the GDPR routes only when every key the user holds is the tenant’s', async () => {
    const { record } = await mintClientKey(
      gateway.app,
      { user: 'dev@acme.example', team: 'apps', label: 'laptop' },
      sessionHeaders('acme'),
    );
    const before = await stored(record.id);
    const user = encodeURIComponent('dev@acme.example');
    for (const [method, url] of [
      ['GET', `/admin/v1/users/${user}/export`],
      ['DELETE', `/admin/v1/users/${user}/data`],
      ['GET', `/admin/gdpr/users/${user}/export`],
    ] as const) {
      const response = await call(method, url, sessionHeaders('beta'));
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error, url).toMatchObject({
        code: 'not_found',
        message: 'user dev@acme.example not found',
      });
    }
    expect(await stored(record.id)).toEqual(before);

    const exported = await call('GET', `/admin/v1/users/${user}/export`, sessionHeaders('acme'));
    expect(exported.statusCode).toBe(200);
    expect(exported.json().keys.map((key: { id: string }) => key.id)).toEqual([record.id]);
    expect((await call('GET', `/admin/v1/users/${user}/export`, adminHeaders)).statusCode).toBe(200);

    // A user holding keys of two tenants is reached by deployment principals only.
    await mintClientKey(gateway.app, { user: 'dev@acme.example', team: 'contract' }, sessionHeaders('beta'));
    expect((await call('GET', `/admin/v1/users/${user}/export`, sessionHeaders('acme'))).statusCode).toBe(404);
    expect((await call('DELETE', `/admin/v1/users/${user}/data`, sessionHeaders('acme'))).statusCode).toBe(404);
    expect(await stored(record.id)).toEqual(before);
    const erased = await call('DELETE', `/admin/v1/users/${user}/data`, adminHeaders);
    expect(erased.statusCode).toBe(200);
    expect(erased.json().erased.keys).toBe(2);
  });
});

describe('outside fleet mode', () => {
  const gateway = gatewayOn(testStores[0][1], {});

  it('lets a tenant-bound principal reach every key, as before', async () => {
    const { record } = await mintClientKey(
      gateway.app,
      { user: 'dev@acme.example', team: 'apps' },
      sessionHeaders('acme'),
    );
    expect(record.tenant).toBe('acme');
    const beta = sessionHeaders('beta');
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/keys', headers: beta }))
        .json()
        .keys.map((key: { id: string }) => key.id),
    ).toEqual([record.id]);
    expect(
      (await gateway.app.inject({ method: 'GET', url: `/admin/v1/keys/${record.id}`, headers: beta })).statusCode,
    ).toBe(200);
    expect(
      (
        await gateway.app.inject({
          method: 'GET',
          url: `/admin/v1/users/${encodeURIComponent('dev@acme.example')}/export`,
          headers: beta,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await gateway.app.inject({ method: 'DELETE', url: `/admin/v1/keys/${record.id}`, headers: beta })).json(),
    ).toEqual({ ok: true });
  });
});
