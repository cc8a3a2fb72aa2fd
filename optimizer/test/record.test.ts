import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedPgDb, testDbUrl, type TestDb } from '@gw/platform';
import { auth, testApp } from './support/test-app.js';

let store: TestDb;
beforeAll(async () => {
  store = await createIsolatedPgDb(testDbUrl(process.env));
});
afterAll(async () => {
  await store.dispose();
});

const call = {
  id: 'trace-1',
  ts: '2026-01-15T11:59:00Z',
  endpoint: '/v1/chat/completions',
  method: 'POST',
  status: 200,
  model: 'gpt-4o',
  provider: 'openai',
  promptTokens: 1200,
  completionTokens: 80,
  totalTokens: 1280,
  durationMs: 812,
  attribution: { user: 'ada', team: 'core', sessionId: 'conv-9' },
  decisions: [{ kind: 'json_minify', estimatedTokensSaved: 40 }],
  content: { input: 'the prompt with a secret: hunter2', output: 'the answer' },
};

describe('POST /v1/record (spec 001 §2.4 rule 9)', () => {
  it('answers 404 when recording is disabled, the default', async () => {
    const { app } = await testApp();
    const response = await app.inject({ method: 'POST', url: '/v1/record', headers: auth, payload: call });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('recording_disabled');
  });

  it('upserts by id, encrypts content, and counts rows for the reporting block', async () => {
    const { app } = await testApp({ traceDb: store.db });
    expect((await app.inject({ method: 'POST', url: '/v1/record', headers: auth, payload: call })).json()).toEqual({ ok: true });
    expect((await app.inject({ method: 'POST', url: '/v1/record', headers: auth, payload: { ...call, status: 500 } })).json()).toEqual({ ok: true });
    const { rows } = await store.db.query<Record<string, unknown>>('SELECT * FROM optimizer_traces');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: 'trace-1', status: 500, model: 'gpt-4o', user_id: 'ada', team_id: 'core', session_id: 'conv-9', total_tokens: 1280 });
    expect(new Date(rows[0]?.ts as string).toISOString()).toBe('2026-01-15T11:59:00.000Z');
    expect(String(rows[0]?.content_sealed)).not.toContain('hunter2');
    expect(rows[0]?.decisions).toEqual([{ kind: 'json_minify', estimatedTokensSaved: 40 }]);
    const health = (await app.inject({ method: 'GET', url: '/health' })).json();
    expect(health.reporting).toMatchObject({ state: 'not_optimizing', rows: 1, calls: 0 });
  });

  it('writes no content without a content key', async () => {
    const { app } = await testApp({ traceDb: store.db, config: { GW_CONTENT_KEY: undefined } });
    await app.inject({ method: 'POST', url: '/v1/record', headers: auth, payload: { ...call, id: 'trace-2' } });
    const { rows } = await store.db.query<{ content_sealed: string | null }>("SELECT content_sealed FROM optimizer_traces WHERE id = 'trace-2'");
    expect(rows[0]?.content_sealed).toBeNull();
  });
});
