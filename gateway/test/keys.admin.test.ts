import { describe, expect, it } from 'vitest';
import { adminHeaders, bearer, gatewayPerTest, mintClientKey, mintServiceKey } from './helpers.js';

describe('key admin routes', () => {
  const gateway = gatewayPerTest();

  it('mints a service key once and stores only its hash', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/admin/service-keys',
      headers: adminHeaders,
      payload: { name: 'ci-bot', team: 'platform', monthlyBudgetUsd: 25 },
    });
    expect(response.statusCode).toBe(201);
    const { key, record } = response.json();
    expect(key).toMatch(/^ark_svc_[A-Za-z0-9_-]{43}$/);
    expect(record).toMatchObject({
      type: 'service',
      source: 'service',
      name: 'ci-bot',
      team: 'platform',
      monthlyBudgetUsd: 25,
      status: 'active',
      createdBy: 'admin-token',
    });
    const dump = await gateway.deps.db.query('SELECT * FROM gw_keys');
    expect(JSON.stringify(dump.rows)).not.toContain(key);
    expect(JSON.stringify(dump.rows)).not.toContain(key.slice(12));
  });

  it('lists service keys with source and type service, and deletes with {ok:true}', async () => {
    await mintClientKey(gateway.app);
    const created = (
      await gateway.app.inject({
        method: 'POST',
        url: '/admin/service-keys',
        headers: adminHeaders,
        payload: { name: 'etl', team: 'data' },
      })
    ).json();
    const list = await gateway.app.inject({ method: 'GET', url: '/admin/service-keys', headers: adminHeaders });
    expect(list.statusCode).toBe(200);
    expect(list.headers.deprecation).toBe('true');
    expect(list.headers.link).toBe('</admin/v1/keys>; rel="successor-version"');
    const { keys } = list.json();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: created.record.id, type: 'service', source: 'service' });
    expect(JSON.stringify(keys)).not.toMatch(/hash/i);

    const deleted = await gateway.app.inject({
      method: 'DELETE',
      url: `/admin/service-keys/${created.record.id}`,
      headers: adminHeaders,
    });
    expect(deleted.json()).toEqual({ ok: true });
    const missing = await gateway.app.inject({
      method: 'DELETE',
      url: '/admin/service-keys/key_nope',
      headers: adminHeaders,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('filters v1 listings by type and reads, patches and rotates a key', async () => {
    const client = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'compilers', label: 'old' });
    await mintServiceKey(gateway.app, { name: 'bot', team: 'ops' });
    const services = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/keys?type=service', headers: adminHeaders })
    ).json();
    expect(services.keys.map((key: { type: string }) => key.type)).toEqual(['service']);
    const all = (await gateway.app.inject({ method: 'GET', url: '/admin/v1/keys', headers: adminHeaders })).json();
    expect(all.keys).toHaveLength(2);

    const patched = await gateway.app.inject({
      method: 'PATCH',
      url: `/admin/v1/keys/${client.record.id}`,
      headers: adminHeaders,
      payload: { label: null, team: 'runtime' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ label: null, team: 'runtime', user: 'ada@example.com' });
    const rejected = await gateway.app.inject({
      method: 'PATCH',
      url: `/admin/v1/keys/${client.record.id}`,
      headers: adminHeaders,
      payload: { user: 'someone-else' },
    });
    expect(rejected.statusCode).toBe(400);
    expect(rejected.json().error).toMatchObject({ code: 'invalid_request', request_id: expect.any(String) });

    const rotated = await gateway.app.inject({
      method: 'POST',
      url: `/admin/v1/keys/${client.record.id}/rotate`,
      headers: adminHeaders,
    });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().key as string;
    expect(fresh).not.toBe(client.key);
    expect((await gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(client.key) })).json().code).toBe(
      'key_unknown',
    );
    expect((await gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(fresh) })).statusCode).toBe(200);
    const read = await gateway.app.inject({
      method: 'GET',
      url: `/admin/v1/keys/${client.record.id}`,
      headers: adminHeaders,
    });
    expect(read.json()).toMatchObject({ id: client.record.id, rotatedAt: expect.any(String) });
  });

  it('rejects bad bodies with 400 and missing or wrong admin credentials with 401', async () => {
    const bad = await gateway.app.inject({
      method: 'POST',
      url: '/admin/service-keys',
      headers: adminHeaders,
      payload: { name: '', team: 'x', extra: 1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid_request');
    const malformed = await gateway.app.inject({
      method: 'POST',
      url: '/admin/service-keys',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(malformed.statusCode).toBe(400);
    const anonymous = await gateway.app.inject({ method: 'GET', url: '/admin/v1/keys' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toMatchObject({
      code: 'unauthenticated',
      request_id: anonymous.headers['x-request-id'],
    });
    const wrong = await gateway.app.inject({
      method: 'GET',
      url: '/admin/service-keys',
      headers: { authorization: 'Bearer not-the-admin-token' },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('echoes a caller-sent x-request-id in v1 errors', async () => {
    const response = await gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/keys/key_missing',
      headers: { ...adminHeaders, 'x-request-id': 'req-123' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['x-request-id']).toBe('req-123');
    expect(response.json()).toEqual({
      error: { code: 'not_found', message: 'key key_missing not found', request_id: 'req-123' },
    });
  });
});
