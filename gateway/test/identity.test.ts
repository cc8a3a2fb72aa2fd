import { describe, expect, it } from 'vitest';
import {
  adminHeaders,
  bearer,
  gatewayPerTest,
  mintClientKey,
  revokeKey,
  startGatewayOnSwitchableStore,
} from './helpers.js';

describe('identity stage on /v1/*', () => {
  const gateway = gatewayPerTest();

  const me = (headers: Record<string, string>) => gateway.app.inject({ method: 'GET', url: '/v1/me', headers });

  it('answers /v1/me with identity and key metadata for each accepted header form', async () => {
    const { key, record } = await mintClientKey(gateway.app, {
      user: 'ada@example.com',
      team: 'compilers',
      label: 'laptop',
    });
    for (const headers of [bearer(key), { 'x-gw-api-key': key }, { 'x-api-key': key }] as Array<
      Record<string, string>
    >) {
      const response = await me(headers);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({
        user: 'ada@example.com',
        team: 'compilers',
        key: { id: record.id, type: 'client', label: 'laptop', source: 'admin' },
      });
      expect(JSON.stringify(body)).not.toMatch(/hash/i);
      expect(JSON.stringify(body)).not.toContain(key);
    }
  });

  it('never lets x-gw-metadata override user or team', async () => {
    const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'compilers' });
    const response = await me({
      ...bearer(key),
      'x-gw-metadata': JSON.stringify({ user: 'mallory', team: 'finance', project: 'apollo' }),
    });
    expect(response.json()).toMatchObject({
      user: 'ada@example.com',
      team: 'compilers',
      metadata: { project: 'apollo' },
    });
  });

  it('answers each key failure with the machine envelope and its code', async () => {
    const expectFailure = async (headers: Record<string, string>, code: string) => {
      const response = await me(headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        status: 'failure',
        code,
        message: 'A valid client key is required.',
        hint: expect.any(String),
      });
      expect(response.headers['x-gw-provider']).toBe('none');
    };
    await expectFailure({}, 'missing_key');
    await expectFailure(bearer('ark_notarealkeynotarealkeynotarealkey'), 'key_unknown');
    await expectFailure(bearer('sk-something-else'), 'key_unknown');

    const revoked = await mintClientKey(gateway.app);
    await revokeKey(gateway.app, revoked.record.id);
    await expectFailure(bearer(revoked.key), 'key_revoked');

    const expiring = await mintClientKey(gateway.app, { user: 'tmp@example.com', team: 't', expiresInDays: 1 });
    gateway.clock.advance(86_400_000 + 1);
    await expectFailure(bearer(expiring.key), 'key_expired');

    const deactivated = await mintClientKey(gateway.app, { user: 'gone@example.com', team: 't' });
    await gateway.deps.keys.setUserActive('gone@example.com', false);
    await expectFailure(bearer(deactivated.key), 'user_deactivated');
  });

  it('throttles an address that keeps presenting bad keys with 429 and Retry-After', async () => {
    let last;
    for (let attempt = 0; attempt < 31; attempt += 1) last = await me(bearer(`ark_bad${'x'.repeat(30)}${attempt}`));
    expect(last?.statusCode).toBe(429);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(last?.headers['retry-after'])).toBeLessThanOrEqual(60);
    const { key } = await mintClientKey(gateway.app);
    expect((await me(bearer(key))).statusCode).toBe(200);
  });

  it('carries a trace id and security headers on every response, including failures', async () => {
    for (const url of ['/v1/me', '/livez', '/nope']) {
      const response = await gateway.app.inject({ method: 'GET', url });
      expect(response.headers['x-gw-trace-id']).toMatch(/^[A-Za-z0-9._:-]{8,}$/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });
});

describe('key store outage', () => {
  it('answers 503 key_store_unavailable, never forwards, and recovers when the store returns', async () => {
    const stack = await startGatewayOnSwitchableStore();
    const { gateway, db } = stack;
    try {
      const { key } = await mintClientKey(gateway.app);
      db.down = true;
      const refused = await gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(key) });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ status: 'failure', code: 'key_store_unavailable' });
      db.down = false;
      const recovered = await gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(key) });
      expect(recovered.statusCode).toBe(200);
    } finally {
      await stack.close();
    }
  });
});

describe('identity mode and auth events', () => {
  const gateway = gatewayPerTest();

  it('lets keyless requests through in network-trusted mode, still verifies presented keys, and records rejections', async () => {
    const anonymous = () => gateway.app.inject({ method: 'GET', url: '/v1/me' });
    expect((await anonymous()).json().code).toBe('missing_key');
    const switched = await gateway.app.inject({
      method: 'PUT',
      url: '/admin/settings/identity',
      headers: adminHeaders,
      payload: { identityMode: 'network-trusted' },
    });
    expect(switched.statusCode).toBe(200);
    const trusted = await anonymous();
    expect(trusted.statusCode).toBe(200);
    expect(trusted.json()).toMatchObject({ user: null, team: 'network-trusted' });
    const bad = await gateway.app.inject({
      method: 'GET',
      url: '/v1/me',
      headers: bearer(`ark_wrong${'z'.repeat(30)}`),
    });
    expect(bad.json().code).toBe('key_unknown');

    // Rejections are recorded off the response path: wait for those writes, then read the feed once.
    await gateway.deps.audit.written();
    const events = await gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/audit/auth-events',
      headers: adminHeaders,
    });
    expect(events.statusCode).toBe(200);
    const feed = events.body;
    expect(feed).toContain('missing_key');
    expect(feed).toContain('key_unknown');
  });
});
