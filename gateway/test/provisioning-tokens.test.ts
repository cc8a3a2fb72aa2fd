import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolePrincipal } from '../src/admin/principal.js';
import { sessionHeaders, startAdminGateway } from './admin-support.js';
import {
  adminHeaders,
  bearer,
  gatewayPerTest,
  startGatewayOnSwitchableStore,
  type SwitchableDb,
  type TestGateway,
} from './helpers.js';
import { oktaUser } from './scim-support.js';

const scimAs = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' });

describe('provisioning tokens', () => {
  const sessions = {
    operator: rolePrincipal('operator', { email: 'ops@example.com' }),
    owner: rolePrincipal('owner', { email: 'owner@example.com' }),
  };
  const gateway = gatewayPerTest({ start: (db) => startAdminGateway({ db, sessions }) });
  const mint = (
    payload: object,
    headers: Record<string, string> = adminHeaders,
    url = '/admin/v1/provisioning/tokens',
  ) => gateway.app.inject({ method: 'POST', url, headers, payload });
  const rotate = (id: string, payload?: object) =>
    gateway.app.inject({
      method: 'POST',
      url: `/admin/v1/provisioning/tokens/${id}/rotate`,
      headers: adminHeaders,
      ...(payload ? { payload } : {}),
    });
  const listUsers = (token: string) =>
    gateway.app.inject({ method: 'GET', url: '/scim/v2/Users', headers: scimAs(token) });

  it('shows the token once, stores only its hash, and serves it on both surfaces', async () => {
    const created = await mint({ label: 'okta', scopes: ['scim'] }, adminHeaders, '/admin/provisioning-tokens');
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    expect(created.headers.link).toBe('</admin/v1/provisioning/tokens>; rel="successor-version"');
    const { token, record } = created.json();
    expect(token).toMatch(/^prv_[A-Za-z0-9_-]{43}$/);
    expect(record).toMatchObject({
      label: 'okta',
      scopes: ['scim'],
      status: 'active',
      createdBy: 'admin-token',
      rotatedAt: null,
      previousValidUntil: null,
      lastUsedAt: null,
    });
    const stored = JSON.stringify((await gateway.deps.db.query('SELECT * FROM gw_provisioning_tokens')).rows);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(8));

    for (const url of ['/admin/provisioning-tokens', '/admin/v1/provisioning/tokens']) {
      const list = await gateway.app.inject({ method: 'GET', url, headers: adminHeaders });
      expect(list.statusCode).toBe(200);
      expect(list.json().tokens).toEqual([record]);
      expect(list.body).not.toMatch(/hash/i);
    }
    const single = await gateway.app.inject({
      method: 'GET',
      url: `/admin/v1/provisioning/tokens/${record.id}`,
      headers: adminHeaders,
    });
    expect(single.json()).toEqual(record);
    expect(
      (
        await gateway.app.inject({
          method: 'GET',
          url: '/admin/v1/provisioning/tokens/prvtok_missing',
          headers: adminHeaders,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('is a SCIM bearer when it carries the scim scope, without a configured SCIM bearer', async () => {
    const { token, record } = (await mint({ scopes: ['scim'] })).json();
    const created = await gateway.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: scimAs(token),
      payload: JSON.stringify(oktaUser('ada@example.com')),
    });
    expect(created.statusCode).toBe(201);
    expect((await listUsers(token)).json().totalResults).toBe(1);
    const used = (
      await gateway.app.inject({
        method: 'GET',
        url: `/admin/v1/provisioning/tokens/${record.id}`,
        headers: adminHeaders,
      })
    ).json();
    expect(used.lastUsedAt).toBe(new Date(gateway.clock.now()).toISOString());

    const enrollmentOnly = (await mint({ scopes: ['enrollment'] })).json().token;
    const refused = await listUsers(enrollmentOnly);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toContain('does not carry the scim scope');
    const unknown = await listUsers(`prv_${'x'.repeat(43)}`);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().detail).toBe('The provisioning token is not valid.');
  });

  it('keeps the old token working through the overlap window after rotation, then refuses it with a clear 401', async () => {
    const { token: first, record } = (await mint({ scopes: ['scim'] })).json();
    const rotated = await rotate(record.id, { overlapSeconds: 3600 });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    const { token: second, record: after } = rotated.json();
    expect(second).not.toBe(first);
    expect(after).toMatchObject({
      id: record.id,
      rotatedAt: new Date(gateway.clock.now()).toISOString(),
      previousValidUntil: new Date(gateway.clock.now() + 3_600_000).toISOString(),
    });
    expect(after.tokenPrefix).not.toBe(record.tokenPrefix);

    expect((await listUsers(first)).statusCode).toBe(200);
    expect((await listUsers(second)).statusCode).toBe(200);
    gateway.clock.advance(3_600_000);
    const expired = await listUsers(first);
    expect(expired.statusCode).toBe(401);
    expect(expired.headers['www-authenticate']).toBe('Bearer realm="scim"');
    expect(expired.json().detail).toBe(
      `The provisioning token ${record.id} was rotated and the old token's overlap window ended at ${after.previousValidUntil}; use the token returned by the rotation.`,
    );
    expect(expired.body).not.toContain(first);
    expect((await listUsers(second)).statusCode).toBe(200);

    // A second rotation drops the oldest token at once and, with no overlap, the one it replaces too.
    const third = (await rotate(record.id, { overlapSeconds: 0 })).json().token;
    expect((await listUsers(second)).statusCode).toBe(401);
    expect((await listUsers(third)).statusCode).toBe(200);
    expect((await rotate(record.id, { overlapSeconds: 8 * 86_400 })).statusCode).toBe(400);
  });

  it('rotates with a one-day overlap by default, and revocation stops both tokens at once', async () => {
    const { token: first, record } = (await mint({ scopes: ['scim'] })).json();
    const { token: second, record: after } = (await rotate(record.id)).json();
    expect(Date.parse(after.previousValidUntil)).toBe(gateway.clock.now() + 86_400_000);
    const revoked = await gateway.app.inject({
      method: 'DELETE',
      url: `/admin/provisioning-tokens/${record.id}`,
      headers: adminHeaders,
    });
    expect(revoked.json()).toEqual({ ok: true });
    for (const token of [first, second]) {
      const refused = await listUsers(token);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().detail).toBe(`The provisioning token ${record.id} was revoked; mint a new one.`);
    }
    expect((await rotate(record.id)).statusCode).toBe(404);
    expect(
      (
        await gateway.app.inject({
          method: 'DELETE',
          url: '/admin/v1/provisioning/tokens/prvtok_missing',
          headers: adminHeaders,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('lets an enrollment token mint enrollment links on /admin/v1 and nothing else', async () => {
    const { token, record } = (await mint({ scopes: ['enrollment'] })).json();
    const link = await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/enrollment/links',
      headers: bearer(token),
      payload: { team: 'platform' },
    });
    expect(link.statusCode).toBe(201);
    expect(link.json().link.createdBy).toBe(`provisioning:${record.id}`);
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/enrollment/links', headers: bearer(token) }))
        .statusCode,
    ).toBe(200);
    const keys = await gateway.app.inject({ method: 'GET', url: '/admin/v1/keys', headers: bearer(token) });
    expect(keys.statusCode).toBe(403);
    expect(keys.json().error.code).toBe('insufficient_scope');
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/enrollment-links', headers: bearer(token) })).statusCode,
    ).toBe(403);

    await rotate(record.id, { overlapSeconds: 0 });
    const stale = await gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/enrollment/links',
      headers: bearer(token),
    });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().error).toMatchObject({
      code: 'unauthenticated',
      message: expect.stringContaining('was rotated'),
    });
  });

  it('validates the body and grants no more than the minter holds', async () => {
    expect((await mint({ scopes: [] })).statusCode).toBe(400);
    expect((await mint({ scopes: ['admin'] })).statusCode).toBe(400);
    expect((await mint({ scopes: ['scim'], extra: true })).statusCode).toBe(400);
    // An operator runs provisioning but may not hand out a SCIM bearer: that needs the SCIM configuration's scope.
    const operatorScim = await mint({ scopes: ['scim'] }, sessionHeaders('operator'));
    expect(operatorScim.statusCode).toBe(403);
    expect(operatorScim.json().error).toMatchObject({ code: 'insufficient_scope', required_scope: 'sso:write' });
    expect((await mint({ scopes: ['scim'] }, sessionHeaders('owner'))).json().record.createdBy).toBe(
      'sso:owner@example.com',
    );
  });

  it('audits minting, rotation and revocation without the token', async () => {
    const { token, record } = (await mint({ scopes: ['scim'] })).json();
    gateway.clock.advance(1000);
    const { token: second } = (await rotate(record.id)).json();
    gateway.clock.advance(1000);
    await gateway.app.inject({
      method: 'DELETE',
      url: `/admin/v1/provisioning/tokens/${record.id}`,
      headers: adminHeaders,
    });
    const events = (
      await gateway.app.inject({
        method: 'GET',
        url: '/admin/v1/audit/events?category=provisioning',
        headers: adminHeaders,
      })
    ).json().data;
    expect(events.map((event: { action: string; outcome: string }) => [event.action, event.outcome])).toEqual([
      ['provisioningTokens.revoke', 'success'],
      ['provisioningTokens.rotate', 'success'],
      ['provisioningTokens.create', 'success'],
    ]);
    expect(events[2].target).toBe(record.id);
    const stored = JSON.stringify((await gateway.deps.db.query('SELECT * FROM gw_audit_events')).rows);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(second);
  });
});

describe('provisioning tokens during a store outage', () => {
  let stack: Awaited<ReturnType<typeof startGatewayOnSwitchableStore>>;
  let gateway: TestGateway;
  let db: SwitchableDb;
  beforeAll(async () => {
    stack = await startGatewayOnSwitchableStore();
    ({ gateway, db } = stack);
  });
  afterAll(async () => {
    db.down = false;
    await stack.close();
  });

  it('fails closed with 503 on both surfaces, never accepting an unverified token', async () => {
    const enrollment = (
      await gateway.app.inject({
        method: 'POST',
        url: '/admin/v1/provisioning/tokens',
        headers: adminHeaders,
        payload: { scopes: ['scim', 'enrollment'] },
      })
    ).json().token;
    db.down = true;
    try {
      const scim = await gateway.app.inject({ method: 'GET', url: '/scim/v2/Users', headers: scimAs(enrollment) });
      expect(scim.statusCode).toBe(503);
      expect(scim.json().detail).toBe('The SCIM store is unavailable; retry shortly.');
      const admin = await gateway.app.inject({
        method: 'GET',
        url: '/admin/v1/enrollment/links',
        headers: bearer(enrollment),
      });
      expect(admin.statusCode).toBe(503);
      expect(admin.json().error).toMatchObject({ code: 'provisioning_token_store_unavailable' });
      expect(admin.body).not.toContain(enrollment);
    } finally {
      db.down = false;
    }
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/scim/v2/Users', headers: scimAs(enrollment) })).statusCode,
    ).toBe(200);
  });
});
