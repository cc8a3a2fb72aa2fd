import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintAdminKey } from './admin-support.js';
import { adminHeaders, startTestGateway, type TestGateway } from './helpers.js';

const dayMs = 24 * 60 * 60_000;

describe('content settings and the content retention', () => {
  let gateway: TestGateway;
  const content = (
    method: 'GET' | 'PUT',
    payload?: Record<string, unknown>,
    headers: Record<string, string> = adminHeaders,
  ) => gateway.app.inject({ method, url: '/admin/v1/settings/content', headers, ...(payload ? { payload } : {}) });
  const traceAgedDays = async (id: string, days: number) => {
    const now = gateway.clock.now();
    gateway.clock.set(now - days * dayMs);
    await gateway.deps.traces.insert({
      id,
      endpoint: '/v1/chat/completions',
      status: 200,
      contentSealed: `sealed-${id}`,
    });
    gateway.clock.set(now);
  };

  beforeAll(async () => {
    gateway = await startTestGateway({ env: { GW_CONTENT_KEY: 'cd'.repeat(32) } });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('shows the mode, the retention and what is held, and purges content past a shortened retention at once', async () => {
    await traceAgedDays('trace-old', 40);
    await traceAgedDays('trace-week', 8);
    await traceAgedDays('trace-new', 1);
    const before = await content('GET');
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({
      contentMode: 'full',
      contentRetentionDays: 30,
      contentKeyConfigured: true,
      storedContent: { traces: 3 },
    });

    const shortened = await content('PUT', { contentRetentionDays: 7 });
    expect(shortened.statusCode).toBe(200);
    expect(shortened.json()).toMatchObject({
      contentRetentionDays: 7,
      storedContent: { traces: 1 },
      lastPurge: { purged: 2 },
    });
    const { rows } = await gateway.deps.db.query<{ id: string; content_sealed: string | null }>(
      'SELECT id, content_sealed FROM gw_traces ORDER BY id',
    );
    expect(rows).toEqual([
      { id: 'trace-new', content_sealed: 'sealed-trace-new' },
      { id: 'trace-old', content_sealed: null },
      { id: 'trace-week', content_sealed: null },
    ]);
    // The metadata stays: the traces are still listed.
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/traces/trace-old', headers: adminHeaders }))
        .statusCode,
    ).toBe(200);
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/settings', headers: adminHeaders })).json(),
    ).toMatchObject({ contentRetentionDays: 7 });
  });

  it('takes settings:content to change, and refuses values out of range', async () => {
    const writer = (await mintAdminKey(gateway.app, { scopes: ['settings:read', 'settings:write'] })).key;
    const refused = await content('PUT', { contentMode: 'off' }, { authorization: `Bearer ${writer}` });
    expect(refused.statusCode).toBe(403);
    expect((await content('GET', undefined, { authorization: `Bearer ${writer}` })).statusCode).toBe(200);
    for (const payload of [
      { contentRetentionDays: 0 },
      { contentRetentionDays: 4000 },
      { contentMode: 'partial' },
      { retention: 3 },
    ]) {
      expect((await content('PUT', payload)).statusCode).toBe(400);
    }
    expect((await content('PUT', { contentMode: 'off' })).json()).toMatchObject({
      contentMode: 'off',
      contentRetentionDays: 7,
    });
  });
});
