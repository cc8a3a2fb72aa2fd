import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keyring } from '@gw/platform';
import { rolePrincipal } from '../src/admin/principal.js';
import { mintAdminKey, sessionHeaders, startAdminGateway } from './admin-support.js';
import { adminHeaders, bearer, type TestGateway } from './helpers.js';

const contentKey = 'cd'.repeat(32);
const secretPrompt = 'the quarterly numbers are confidential';

describe('traces', () => {
  let gateway: TestGateway;
  let observer: string;

  beforeAll(async () => {
    gateway = await startAdminGateway({
      env: { GW_CONTENT_KEY: contentKey },
      sessions: {
        owner: rolePrincipal('owner', { email: 'owner@example.com' }),
        auditor: rolePrincipal('auditor', { email: 'auditor@example.com' }),
      },
    });
    const keyring = Keyring.fromHexKey(contentKey);
    const rows = [
      {
        id: 'tr_1',
        user: 'ada@example.com',
        sessionId: 's1',
        model: 'gpt-5',
        provider: 'openai',
        promptTokens: 10,
        costUsd: 0.5,
      },
      {
        id: 'tr_2',
        user: 'ada@example.com',
        sessionId: 's1',
        model: 'gpt-5',
        provider: 'openai',
        promptTokens: 20,
        costUsd: 0.25,
      },
      {
        id: 'tr_3',
        user: 'ada@example.com',
        sessionId: 's1',
        model: 'claude-x',
        provider: 'anthropic',
        promptTokens: 5,
      },
      { id: 'tr_4', user: 'bob@example.com', sessionId: 's2', model: 'claude-x', provider: 'anthropic' },
      { id: 'tr_5', user: 'bob@example.com', sessionId: 's2', model: 'claude-x', provider: 'anthropic' },
      { id: 'tr_6', user: 'bob@example.com', sessionId: null, model: 'gpt-5', provider: 'openai' },
      { id: 'tr_7', user: null, sessionId: null, model: 'gpt-5', provider: 'openai' },
    ];
    for (const row of rows) {
      gateway.clock.advance(1000);
      const contentSealed =
        row.id === 'tr_1'
          ? keyring.encrypt(
              JSON.stringify({
                request: { messages: [{ role: 'user', content: secretPrompt }] },
                response: { text: 'ok' },
              }),
              'trace:tr_1',
            )
          : null;
      await gateway.deps.traces.insert({
        ...row,
        team: 'compilers',
        endpoint: '/v1/chat/completions',
        status: 200,
        latencyMs: 40,
        contentSealed,
      });
    }
    observer = (await mintAdminKey(gateway.app, { caps: ['observability:read'] })).key;
  });
  afterAll(async () => {
    await gateway.close();
  });

  const get = (url: string, headers: Record<string, string> = adminHeaders) =>
    gateway.app.inject({ method: 'GET', url, headers });

  it('lists metadata newest first with cursor paging and filters, never content', async () => {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Array<{ id: string }>; next_cursor: string | null } = (
        await get(`/admin/v1/traces?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, bearer(observer))
      ).json();
      ids.push(...page.data.map((trace: { id: string }) => trace.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(ids).toEqual(['tr_7', 'tr_6', 'tr_5', 'tr_4', 'tr_3', 'tr_2', 'tr_1']);
    const filtered = (
      await get('/admin/observability/traces?user=ada%40example.com&model=gpt-5', bearer(observer))
    ).json();
    expect(filtered.data.map((trace: { id: string }) => trace.id)).toEqual(['tr_2', 'tr_1']);
    expect(filtered.data[1]).toMatchObject({
      sessionId: 's1',
      provider: 'openai',
      promptTokens: 10,
      costUsd: 0.5,
      hasContent: true,
    });
    expect((await get('/admin/v1/traces?session=s2')).json().data).toHaveLength(2);
  });

  it('reads one trace as metadata only for every caller', async () => {
    for (const headers of [adminHeaders, sessionHeaders('owner'), bearer(observer)]) {
      const response = await get('/admin/v1/traces/tr_1', headers);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: 'tr_1', user: 'ada@example.com', hasContent: true });
      expect(response.body).not.toContain(secretPrompt);
    }
    expect((await get('/admin/v1/traces/tr_missing')).statusCode).toBe(404);
  });

  it('counts facets and groups sessions', async () => {
    const facets = (await get('/admin/v1/traces/facets?days=1')).json();
    expect(facets.models).toEqual([
      { value: 'gpt-5', count: 4 },
      { value: 'claude-x', count: 3 },
    ]);
    expect(facets.users).toEqual([
      { value: 'ada@example.com', count: 3 },
      { value: 'bob@example.com', count: 3 },
    ]);
    expect(facets.statuses).toEqual([{ value: '200', count: 7 }]);
    const sessions = (await get('/admin/observability/sessions', bearer(observer))).json().sessions;
    expect(sessions).toEqual([
      expect.objectContaining({ sessionId: 's2', user: 'bob@example.com', traces: 2 }),
      expect.objectContaining({ sessionId: 's1', user: 'ada@example.com', traces: 3, promptTokens: 35, costUsd: 0.75 }),
    ]);
  });

  it('returns content only to a principal holding traces:content, never to a key, and audits the read', async () => {
    const owner = await get('/admin/v1/traces/tr_1/content', sessionHeaders('owner'));
    expect(owner.statusCode).toBe(200);
    expect(owner.json()).toEqual({
      id: 'tr_1',
      content: { request: { messages: [{ role: 'user', content: secretPrompt }] }, response: { text: 'ok' } },
    });
    gateway.clock.advance(1000);
    expect((await get('/admin/observability/traces/tr_1/content')).statusCode).toBe(200);

    const auditor = await get('/admin/v1/traces/tr_1/content', sessionHeaders('auditor'));
    expect(auditor.statusCode).toBe(403);
    expect(auditor.json().error).toMatchObject({ code: 'insufficient_scope', required_scope: 'traces:content' });
    const key = await get('/admin/v1/traces/tr_1/content', bearer(observer));
    expect(key.statusCode).toBe(403);
    expect(key.json().error.required_scope).toBe('traces:content');
    expect((await get('/admin/observability/traces/tr_1/content', bearer(observer))).statusCode).toBe(403);
    expect((await get('/admin/v1/traces/tr_2/content', sessionHeaders('owner'))).statusCode).toBe(404);

    const reads = (await get('/admin/v1/audit/events?category=traces'))
      .json()
      .data.filter((event: { outcome: string }) => event.outcome === 'success');
    expect(reads.map((event: { actor: string; target: string }) => [event.actor, event.target])).toEqual([
      ['admin-token', 'tr_1'],
      ['sso:owner@example.com', 'tr_1'],
    ]);
  });
});
