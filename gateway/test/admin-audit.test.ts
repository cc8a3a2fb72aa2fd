import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mintAdminKey } from './admin-support.js';
import { adminHeaders, bearer, startTestGateway, type TestGateway } from './helpers.js';

interface FeedEvent {
  id: string;
  at: string;
  category: string;
  action: string;
  actor: string;
  target: string | null;
  outcome: string;
  status: number | null;
  requestId: string | null;
}

describe('audit trail', () => {
  let gateway: TestGateway;
  beforeEach(async () => {
    gateway = await startTestGateway();
  });
  afterEach(async () => {
    await gateway.close();
  });

  const feed = async (query = '') => {
    const response = await gateway.app.inject({
      method: 'GET',
      url: `/admin/v1/audit/events${query}`,
      headers: adminHeaders,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: FeedEvent[]; next_cursor: string | null }>();
  };

  it('records every write on either surface, content-free, and no reads', async () => {
    const legacy = await gateway.app.inject({
      method: 'POST',
      url: '/admin/service-keys',
      headers: adminHeaders,
      payload: { name: 'do-not-log-this-name', team: 'ops' },
    });
    expect(legacy.statusCode).toBe(201);
    await gateway.app.inject({ method: 'GET', url: '/admin/v1/keys', headers: adminHeaders });
    gateway.clock.advance(1000);
    const missing = await gateway.app.inject({
      method: 'DELETE',
      url: '/admin/v1/keys/key_missing',
      headers: { ...adminHeaders, 'x-request-id': 'req-audit-1' },
    });
    expect(missing.statusCode).toBe(404);
    gateway.clock.advance(1000);
    const reader = await mintAdminKey(gateway.app, { scopes: ['keys:read'] });
    gateway.clock.advance(1000);
    const refused = await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/keys',
      headers: bearer(reader.key),
      payload: { user: 'x@example.com', team: 't' },
    });
    expect(refused.statusCode).toBe(403);

    const { data } = await feed();
    expect(data.map((event) => [event.action, event.outcome, event.status])).toEqual([
      ['keys.create', 'failure', 403],
      ['adminKeys.create', 'success', 201],
      ['keys.revoke', 'failure', 404],
      ['serviceKeys.create', 'success', 201],
    ]);
    expect(data[0]).toMatchObject({
      actor: `apikey:${reader.record.id}`,
      category: 'keys',
      requestId: refused.headers['x-request-id'],
    });
    expect(data[1]).toMatchObject({ actor: 'admin-token', category: 'admin-keys', target: reader.record.id });
    expect(data[2]).toMatchObject({ target: 'key_missing', requestId: 'req-audit-1' });
    expect(data[3]).toMatchObject({
      actor: 'admin-token',
      category: 'service-keys',
      target: legacy.json().record.id,
      requestId: legacy.headers['x-gw-trace-id'],
    });
    const stored = JSON.stringify((await gateway.deps.db.query('SELECT * FROM gw_audit_events')).rows);
    expect(stored).not.toContain('do-not-log-this-name');
    expect(stored).not.toContain(reader.key);
  });

  it('pages with a stable cursor that returns every event exactly once, even while new events arrive', async () => {
    // Several events share a timestamp so the id tie-break matters.
    for (let index = 0; index < 23; index += 1) {
      if (index % 4 === 0) gateway.clock.advance(1000);
      await gateway.deps.audit.record({
        category: index % 2 === 0 ? 'keys' : 'settings',
        action: `test.${index}`,
        actor: 'admin-token',
        outcome: 'success',
        status: 200,
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await feed(`?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.data.length).toBeLessThanOrEqual(5);
      seen.push(...page.data.map((event) => event.action));
      cursor = page.next_cursor;
      pages += 1;
      // A write in the middle of paging sorts before the cursor and never shows up in later pages.
      if (pages === 2)
        await gateway.deps.audit.record({
          category: 'keys',
          action: 'late.arrival',
          actor: 'admin-token',
          outcome: 'success',
        });
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    expect(seen).not.toContain('late.arrival');

    const settingsOnly = await feed('?category=settings&limit=100');
    expect(settingsOnly.data).toHaveLength(11);
    expect(settingsOnly.data.every((event) => event.category === 'settings')).toBe(true);
    expect(settingsOnly.next_cursor).toBeNull();
  });

  it('rejects a cursor it did not issue', async () => {
    const response = await gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/audit/events?cursor=not-a-cursor',
      headers: adminHeaders,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('cursor'),
    });
  });

  it('serves reason-coded auth rejections on both surfaces, filtered by user', async () => {
    await gateway.deps.audit.recordAuthRejection({
      code: 'key_revoked',
      user: 'ada@example.com',
      keyId: 'key_1',
      endpoint: '/v1/chat/completions',
      status: 401,
      hint: 'Ask your administrator for a new key.',
    });
    gateway.clock.advance(1000);
    await gateway.deps.audit.recordAuthRejection({
      code: 'user_budget_exceeded',
      user: 'bob@example.com',
      keyId: 'key_2',
      endpoint: '/v1/messages',
      status: 402,
      hint: 'Raise the budget or wait.',
    });
    const legacy = await gateway.app.inject({
      method: 'GET',
      url: '/admin/auth-events?user=ada%40example.com',
      headers: adminHeaders,
    });
    expect(legacy.statusCode).toBe(200);
    expect(legacy.headers.link).toBe('</admin/v1/audit/auth-events>; rel="successor-version"');
    expect(legacy.json().events).toEqual([
      {
        id: expect.any(String),
        at: expect.any(String),
        code: 'key_revoked',
        user: 'ada@example.com',
        keyId: 'key_1',
        endpoint: '/v1/chat/completions',
        status: 401,
        hint: 'Ask your administrator for a new key.',
      },
    ]);
    const v1 = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/audit/auth-events?limit=10', headers: adminHeaders })
    ).json();
    expect(v1.events.map((event: { code: string }) => event.code)).toEqual(['user_budget_exceeded', 'key_revoked']);
    expect((await feed('?category=auth')).data).toHaveLength(2);
  });
});
