import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedPgDb, testDbUrl, type TestDb } from '@gw/testkit';
import { auth, chatRequest, numberedLines, testApp, type TestApp } from './support/test-app.js';

// Owner and session ids become stash row owners, recall filters and cache partitions in Postgres.
let store: TestDb;
beforeAll(async () => {
  store = await createIsolatedPgDb(testDbUrl(process.env));
});
afterAll(async () => {
  await store.dispose();
});

function optimize(harness: TestApp, metadata: Record<string, unknown>, output = numberedLines(40, 'build step')) {
  return harness.app.inject({
    method: 'POST',
    url: '/v1/optimize',
    headers: auth,
    payload: { endpoint: '/v1/chat/completions', request: chatRequest(output), metadata },
  });
}

async function storeState(harness: TestApp): Promise<string> {
  return (await harness.app.inject({ method: 'GET', url: '/health' })).json().retrievalStore.state;
}

const unstorable = ['a\u0000b', '\uD800lone'];

describe('caller ids the durable store cannot hold', () => {
  it.each(['user', 'team', 'tenant', 'gatewaySessionId', 'sessionId', 'session'])(
    'answers 400 for a U+0000 or an unpaired surrogate in metadata.%s, and handles stay on for everyone',
    async (field) => {
      const harness = await testApp({ db: store.db });
      for (const value of unstorable) {
        const refused = await optimize(harness, { user: 'ada', [field]: value });
        expect(refused.statusCode).toBe(400);
        expect(refused.json().error).toMatchObject({
          code: 'invalid_request',
          message: expect.stringContaining(`metadata.${field}`),
        });
        expect(refused.body).not.toContain(value);
      }
      expect(await storeState(harness)).toBe('ready');
      const next = await optimize(harness, { user: 'bob' }, numberedLines(40, 'next caller'));
      expect(JSON.stringify(next.json().request)).toMatch(/ctx_[A-Za-z0-9_-]{32}/);
    },
  );

  it('refuses the same ids on the other hooks that carry caller metadata', async () => {
    const harness = await testApp({ db: store.db });
    const metadata = { user: 'a\u0000b' };
    const calls = [
      { url: '/v1/recall', payload: { query: 'build', metadata } },
      { url: '/v1/cache', payload: { cacheKey: 'gwc1.x', response: {}, ttlSeconds: 60, metadata } },
      { url: '/v1/optimize-response', payload: { endpoint: '/v1/chat/completions', response: {}, metadata } },
    ];
    for (const call of calls) {
      const response = await harness.app.inject({
        method: 'POST',
        url: call.url,
        headers: auth,
        payload: call.payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    }
  });

  it('documents the limit in the OpenAPI document', async () => {
    const harness = await testApp();
    const document = (await harness.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const user =
      document.paths['/v1/optimize'].post.requestBody.content['application/json'].schema.properties.metadata.properties
        .user;
    expect(user).toMatchObject({
      type: 'string',
      pattern: expect.any(String),
      description: expect.stringContaining('Attributed user id'),
    });
  });
});
