import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedPgDb, testDbUrl, type TestDb } from '@gw/testkit';
import { adminAuth, auth, chatRequest, numberedLines, testApp, type TestApp } from './support/test-app.js';

let store: TestDb;
beforeAll(async () => {
  store = await createIsolatedPgDb(testDbUrl(process.env));
});
afterAll(async () => {
  await store.dispose();
});

async function stashFor(harness: TestApp, user: string, tenant?: string): Promise<string> {
  const metadata = { user, ...(tenant ? { tenant } : {}) };
  const response = await harness.app.inject({
    method: 'POST',
    url: '/v1/optimize',
    headers: auth,
    payload: {
      endpoint: '/v1/chat/completions',
      request: chatRequest(numberedLines(60, `output of ${user}`)),
      metadata,
    },
  });
  const handle = /ctx_[A-Za-z0-9_-]{32}/.exec(JSON.stringify(response.json().request))?.[0];
  if (!handle) throw new Error('the pipeline stashed nothing');
  return handle;
}

const retrieve = (harness: TestApp, handle: string, user: string, tenant?: string) =>
  harness.app.inject({
    method: 'POST',
    url: '/v1/retrieve',
    headers: auth,
    payload: { handle, metadata: { user, ...(tenant ? { tenant } : {}) } },
  });
const purge = (harness: TestApp, payload: unknown, headers: Record<string, string> = adminAuth) =>
  harness.app.inject({
    method: 'POST',
    url: '/admin/optimizer/purge',
    headers,
    payload: payload as Record<string, unknown>,
  });

describe('POST /admin/optimizer/purge', () => {
  it("drops one user's stashed originals from both tiers and leaves everyone else's readable", async () => {
    const harness = await testApp({ db: store.db });
    const ada = await stashFor(harness, 'ada@example.com');
    const bob = await stashFor(harness, 'bob@example.com');
    const response = await purge(harness, { user: 'ada@example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ purged: { memory: 1, durable: 1 } });
    expect((await retrieve(harness, ada, 'ada@example.com')).statusCode).toBe(404);
    expect((await retrieve(harness, bob, 'bob@example.com')).statusCode).toBe(200);
    // Another replica reading the same durable store no longer finds the purged row either.
    const other = await testApp({ db: store.db });
    expect((await retrieve(other, ada, 'ada@example.com')).statusCode).toBe(404);
    expect((await retrieve(other, bob, 'bob@example.com')).statusCode).toBe(200);
  });

  it('purges one tenant, or everything only when asked for in so many words', async () => {
    const harness = await testApp({ db: store.db });
    await store.db.query('DELETE FROM optimizer_stash');
    const acme = await stashFor(harness, 'ada@example.com', 'acme');
    const globex = await stashFor(harness, 'ada@example.com', 'globex');
    expect((await purge(harness, { tenant: 'acme' })).json()).toEqual({ purged: { memory: 1, durable: 1 } });
    expect((await retrieve(harness, acme, 'ada@example.com', 'acme')).statusCode).toBe(404);
    expect((await retrieve(harness, globex, 'ada@example.com', 'globex')).statusCode).toBe(200);
    for (const body of [{}, { all: false }, { user: '' }, { user: 'ada@example.com', extra: 1 }, ['all']]) {
      const refused = await purge(harness, body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('invalid_request');
    }
    expect((await retrieve(harness, globex, 'ada@example.com', 'globex')).statusCode).toBe(200);
    expect((await purge(harness, { all: true })).json()).toEqual({ purged: { memory: 1, durable: 1 } });
    expect((await retrieve(harness, globex, 'ada@example.com', 'globex')).statusCode).toBe(404);
  });

  it('takes the admin bearer only', async () => {
    const harness = await testApp({ db: store.db });
    expect((await purge(harness, { all: true }, auth)).statusCode).toBe(401);
    expect((await purge(harness, { all: true }, {})).statusCode).toBe(401);
  });
});
