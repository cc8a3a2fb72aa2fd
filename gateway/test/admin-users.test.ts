import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mintAdminKey } from './admin-support.js';
import { adminHeaders, bearer, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';

const ada = 'ada@example.com';
const encodedAda = encodeURIComponent(ada);

describe('revoked users', () => {
  let gateway: TestGateway;
  beforeEach(async () => {
    gateway = await startTestGateway();
  });
  afterEach(async () => {
    await gateway.close();
  });

  const me = (key: string) => gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(key) });

  it('blocks every key of a revoked developer on the next request and restores them on reinstatement', async () => {
    const { key } = await mintClientKey(gateway.app, { user: ada, team: 'compilers' });
    expect((await me(key)).statusCode).toBe(200);

    const revoked = await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/users/revoked',
      headers: adminHeaders,
      payload: { email: ada, reason: 'left the company' },
    });
    expect(revoked.statusCode).toBe(201);
    expect(revoked.json()).toMatchObject({ email: ada, reason: 'left the company', revokedBy: 'admin-token' });
    expect((await me(key)).json()).toMatchObject({ status: 'failure', code: 'user_deactivated' });

    for (const url of ['/admin/revoked-users', '/admin/v1/users/revoked']) {
      expect(
        (await gateway.app.inject({ method: 'GET', url, headers: adminHeaders }))
          .json()
          .users.map((user: { email: string }) => user.email),
      ).toEqual([ada]);
    }
    const reader = await mintAdminKey(gateway.app, { scopes: ['users:read'] });
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/users/revoked', headers: bearer(reader.key) }))
        .statusCode,
    ).toBe(200);
    const refused = await gateway.app.inject({
      method: 'DELETE',
      url: `/admin/v1/users/revoked/${encodedAda}`,
      headers: bearer(reader.key),
    });
    expect(refused.json().error).toMatchObject({ code: 'insufficient_scope', required_scope: 'users:revoke' });

    expect(
      (
        await gateway.app.inject({ method: 'DELETE', url: `/admin/revoked-users/${encodedAda}`, headers: adminHeaders })
      ).json(),
    ).toEqual({ ok: true });
    expect((await me(key)).statusCode).toBe(200);
    expect(
      (
        await gateway.app.inject({
          method: 'DELETE',
          url: `/admin/v1/users/revoked/${encodedAda}`,
          headers: adminHeaders,
        })
      ).statusCode,
    ).toBe(404);

    const feed = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/audit/events?category=users', headers: adminHeaders })
    ).json();
    expect(feed.data.find((event: { action: string }) => event.action === 'revokedUsers.revoke')).toMatchObject({
      target: ada,
      subject: ada,
      outcome: 'success',
    });
  });
});

describe('GDPR export and erase', () => {
  let gateway: TestGateway;
  let spendTable: boolean;
  beforeEach(async () => {
    gateway = await startTestGateway();
    const { rows } = await gateway.deps.db.query<{ present: boolean }>(
      "SELECT to_regclass('gw_spend') IS NOT NULL AS present",
    );
    spendTable = rows[0]?.present === true;
  });
  afterEach(async () => {
    await gateway.close();
  });

  const addSpend = async (id: string, user: string) => {
    if (!spendTable) return;
    await gateway.deps.db.query(
      "INSERT INTO gw_spend (id, ts, endpoint, method, status, outcome, user_id, team) VALUES ($1, now(), '/v1/chat/completions', 'POST', 200, 'success', $2, 'compilers')",
      [id, user],
    );
  };

  it('exports everything stored about a user, then erases it in one audited step', async () => {
    const first = await mintClientKey(gateway.app, { user: ada, team: 'compilers', label: 'laptop' });
    gateway.clock.advance(1000);
    await mintClientKey(gateway.app, { user: ada, team: 'compilers' });
    const bob = await mintClientKey(gateway.app, { user: 'bob@example.com', team: 'compilers' });
    await addSpend('sp_ada', ada);
    await addSpend('sp_bob', 'bob@example.com');
    await gateway.deps.traces.insert({
      id: 'tr_ada',
      user: ada,
      team: 'compilers',
      endpoint: '/v1/messages',
      status: 200,
      sessionId: 's1',
    });

    const exported = await gateway.app.inject({
      method: 'GET',
      url: `/admin/v1/users/${encodedAda}/export`,
      headers: adminHeaders,
    });
    expect(exported.statusCode).toBe(200);
    const body = exported.json();
    expect(body).toMatchObject({ user: ada, exportedAt: expect.any(String), caps: [] });
    expect(body.keys).toHaveLength(2);
    expect(body.keys[0]).toMatchObject({ id: first.record.id, user_id: ada, label: 'laptop' });
    expect(exported.body).not.toMatch(/key_hash/);
    expect(body.spend).toHaveLength(spendTable ? 1 : 0);
    expect(body.traces).toEqual([expect.objectContaining({ id: 'tr_ada', has_content: false })]);
    expect(body.audit.map((event: { action: string }) => event.action)).toEqual(['keys.create', 'keys.create']);

    gateway.clock.advance(1000);
    const erased = await gateway.app.inject({
      method: 'DELETE',
      url: `/admin/gdpr/users/${encodedAda}/data`,
      headers: adminHeaders,
    });
    expect(erased.statusCode).toBe(200);
    const { pseudonym, erased: counts } = erased.json();
    expect(pseudonym).toMatch(/^erased-/);
    expect(counts).toMatchObject({ keys: 2, traces: 1, spend: spendTable ? 1 : 0, audit: 3 });

    const erasedAt = new Date(gateway.clock.now());
    gateway.clock.advance(1000);
    // The person is gone from every source; their keys no longer work; others are untouched.
    const after = (
      await gateway.app.inject({ method: 'GET', url: `/admin/v1/users/${encodedAda}/export`, headers: adminHeaders })
    ).json();
    expect(after).toMatchObject({ profile: null, revoked: null, keys: [], spend: [], traces: [] });
    expect((await gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(first.key) })).json().code).toBe(
      'key_revoked',
    );
    expect((await gateway.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(bob.key) })).statusCode).toBe(200);
    if (spendTable) {
      const { rows } = await gateway.deps.db.query<{ user_id: string }>('SELECT user_id FROM gw_spend ORDER BY id');
      expect(rows.map((row) => row.user_id)).toEqual([pseudonym, 'bob@example.com']);
    }

    const events = (
      await gateway.app.inject({
        method: 'GET',
        url: '/admin/v1/audit/events?category=users&limit=10',
        headers: adminHeaders,
      })
    ).json().data;
    expect(events[0]).toMatchObject({ action: 'users.export', outcome: 'success' });
    expect(events[1]).toMatchObject({
      action: 'users.erase',
      actor: 'admin-token',
      target: pseudonym,
      subject: null,
      outcome: 'success',
    });
    // Nothing recorded up to the erase names the person any more (the export made afterwards does, as it should).
    const stored = JSON.stringify(
      (await gateway.deps.db.query('SELECT * FROM gw_audit_events WHERE created_at <= $1', [erasedAt])).rows,
    );
    expect(stored).not.toContain(ada);
  });
});
