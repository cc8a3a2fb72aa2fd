import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedPgDb, testDbUrl, type TestDb } from '@gw/testkit';
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

describe('POST /v1/record', () => {
  it('answers 404 when recording is disabled, the default', async () => {
    const { app } = await testApp();
    const response = await app.inject({ method: 'POST', url: '/v1/record', headers: auth, payload: call });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('recording_disabled');
  });

  it('upserts by id, encrypts content, and counts rows for the reporting block', async () => {
    const { app } = await testApp({ traceDb: store.db });
    expect((await app.inject({ method: 'POST', url: '/v1/record', headers: auth, payload: call })).json()).toEqual({
      ok: true,
    });
    expect(
      (
        await app.inject({ method: 'POST', url: '/v1/record', headers: auth, payload: { ...call, status: 500 } })
      ).json(),
    ).toEqual({ ok: true });
    const { rows } = await store.db.query<Record<string, unknown>>('SELECT * FROM optimizer_traces');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: 'trace-1',
      status: 500,
      model: 'gpt-4o',
      user_id: 'ada',
      team_id: 'core',
      session_id: 'conv-9',
      total_tokens: 1280,
    });
    expect(new Date(rows[0]?.ts as string).toISOString()).toBe('2026-01-15T11:59:00.000Z');
    expect(String(rows[0]?.content_sealed)).not.toContain('hunter2');
    expect(rows[0]?.decisions).toEqual([{ kind: 'json_minify', estimatedTokensSaved: 40 }]);
    const health = (await app.inject({ method: 'GET', url: '/health' })).json();
    expect(health.reporting).toMatchObject({ state: 'not_optimizing', rows: 1, calls: 0 });
  });

  it('writes no content without a content key', async () => {
    const { app } = await testApp({ traceDb: store.db, config: { GW_CONTENT_KEY: undefined } });
    await app.inject({ method: 'POST', url: '/v1/record', headers: auth, payload: { ...call, id: 'trace-2' } });
    const { rows } = await store.db.query<{ content_sealed: string | null }>(
      "SELECT content_sealed FROM optimizer_traces WHERE id = 'trace-2'",
    );
    expect(rows[0]?.content_sealed).toBeNull();
  });

  it.each([
    ['promptTokens past the integer column', { promptTokens: 3_000_000_000 }, 'body.promptTokens'],
    ['totalTokens past the integer column', { totalTokens: 9_007_199_254_740_991 }, 'body.totalTokens'],
    ['an impossible status', { status: 99_999_999_999 }, 'body.status'],
    ['a duration past the latency column', { durationMs: 1e300 }, 'body.durationMs'],
    [
      'a saving past the integer column',
      { decisions: [{ kind: 'x', estimatedTokensSaved: 1e308 }] },
      'body.decisions.0.estimatedTokensSaved',
    ],
    ['ts far in the future', { ts: 1e308 }, 'body.ts'],
    ['ts before 1970', { ts: -8e15 }, 'body.ts'],
    ['ts as too many digits', { ts: '99999999999999999999' }, 'body.ts'],
    ['ts that is not a date', { ts: 'not a date' }, 'body.ts'],
    ['ts on a day that does not exist', { ts: '2026-02-30T00:00:00Z' }, 'body.ts'],
    ['ts without a zone (whose local time?)', { ts: '2026-01-15T11:59:00' }, 'body.ts'],
    ['a U+0000 in the id', { id: 'nul\u0000id' }, 'body.id'],
    ['a U+0000 in the model', { model: 'gpt\u0000' }, 'body.model'],
    ['a U+0000 in the user', { attribution: { user: 'a\u0000' } }, 'body.attribution.user'],
    ['a U+0000 in a decision kind', { decisions: [{ kind: 'a\u0000' }] }, 'body.decisions.0.kind'],
    ['an unpaired surrogate in a decision kind', { decisions: [{ kind: '\uD800' }] }, 'body.decisions.0.kind'],
  ])('answers 400 naming the field, never 500, for %s', async (_label, fields, path) => {
    const { app } = await testApp({ traceDb: store.db });
    const id = `bad-${path}-${JSON.stringify(fields).length}`;
    const response = await app.inject({ method: 'POST', url: '/v1/record', headers: auth, payload: { id, ...fields } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(path) });
    const { rows } = await store.db.query('SELECT id FROM optimizer_traces WHERE id = $1', [id]);
    expect(rows).toEqual([]);
  });

  it.each([
    ['epoch milliseconds', 1_768_478_340_000],
    ['epoch milliseconds as digits', '1768478340000'],
    ['RFC 3339 with an offset and a fraction', '2026-01-15T13:59:00.000+02:00'],
    ['a lower-case RFC 3339', '2026-01-15t11:59:00z'],
  ])('stores ts given as %s', async (_label, ts) => {
    const { app } = await testApp({ traceDb: store.db });
    const id = `ts-${String(ts)}`;
    expect(
      (await app.inject({ method: 'POST', url: '/v1/record', headers: auth, payload: { id, ts } })).statusCode,
    ).toBe(200);
    const { rows } = await store.db.query<{ ts: Date | string }>('SELECT ts FROM optimizer_traces WHERE id = $1', [id]);
    expect(new Date(rows[0]?.ts as string).toISOString()).toBe('2026-01-15T11:59:00.000Z');
  });

  it('takes the largest values the columns hold', async () => {
    const { app } = await testApp({ traceDb: store.db });
    const largest = {
      id: 'largest',
      ts: '9999-12-31',
      status: 999,
      promptTokens: 2_147_483_647,
      completionTokens: 2_147_483_647,
      totalTokens: 2_147_483_647,
      durationMs: 2_147_483_647,
    };
    expect((await app.inject({ method: 'POST', url: '/v1/record', headers: auth, payload: largest })).statusCode).toBe(
      200,
    );
  });
});
