import { describe, expect, it } from 'vitest';
import { createIsolatedPgDb, testDbUrl } from '@gw/testkit';
import { adminAuth, auth, testApp, optimizerToken } from './support/test-app.js';

type App = Awaited<ReturnType<typeof testApp>>['app'];

const answer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Paris.' }, finish_reason: 'stop' }],
};
const question = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Capital of France?' }] };

async function optimize(app: App, body: Record<string, unknown>, headers: Record<string, string> = auth) {
  return (
    await app.inject({
      method: 'POST',
      url: '/v1/optimize',
      headers,
      payload: { endpoint: '/v1/chat/completions', ...body },
    })
  ).json();
}

async function write(app: App, body: Record<string, unknown>, headers: Record<string, string> = auth) {
  return app.inject({
    method: 'POST',
    url: '/v1/cache',
    headers,
    payload: { response: answer, ttlSeconds: 600, ...body },
  });
}

describe('semantic cache (the contract cache rules 1–4)', () => {
  it('serves an exact normalised repeat within the same partition', async () => {
    const { app } = await testApp();
    const first = await optimize(app, { request: question, metadata: { user: 'ada' } });
    expect(first).toMatchObject({ cacheHit: false, cacheEligible: true, cacheTtlSeconds: 3600 });
    expect(first.cacheKey).toMatch(/^gwc2\.l\./);
    expect(first).not.toHaveProperty('cacheShadowOnly');
    expect((await write(app, { cacheKey: first.cacheKey, metadata: { user: 'ada' } })).json()).toEqual({ ok: true });
    // Trailing whitespace, CRLF, key order and the stream flag do not change the normalised hash.
    const repeat = { stream: true, messages: [{ content: 'Capital of France?  \r\n', role: 'user' }], model: 'gpt-4o' };
    const hit = await optimize(app, { request: repeat, metadata: { user: 'ada' } });
    expect(hit).toMatchObject({ cacheHit: true, cachedResponse: answer, decisions: [] });
    expect(
      (await optimize(app, { request: { ...question, temperature: 0.2 }, metadata: { user: 'ada' } })).cacheHit,
    ).toBe(false);
  });

  it('serves a near duplicate that differs only in invisible layout, never one that differs in wording or case', async () => {
    const { app } = await testApp();
    const first = await optimize(app, { request: question, metadata: { user: 'ada' } });
    await write(app, { cacheKey: first.cacheKey, metadata: { user: 'ada' } });
    const spaced = { ...question, messages: [{ role: 'user', content: 'Capital  of\u00A0France?' }] };
    const near = await optimize(app, { request: spaced, metadata: { user: 'ada' } });
    expect(near).toMatchObject({ cacheHit: true, cachedResponse: answer });
    expect(near.cacheKey).not.toBe(first.cacheKey);
    expect((await optimize(app, { request: spaced, metadata: { user: 'bob' } })).cacheHit).toBe(false);
    for (const content of ['capital of france?', 'Capital of France', 'Capital of Paris?']) {
      expect(
        (
          await optimize(app, {
            request: { ...question, messages: [{ role: 'user', content }] },
            metadata: { user: 'ada' },
          })
        ).cacheHit,
      ).toBe(false);
    }
    // A shadow-lane write of another near duplicate does not take the slot of the servable answer.
    const tabbed = { ...question, messages: [{ role: 'user', content: 'Capital\tof France?' }] };
    const shadowed = await optimize(app, {
      request: tabbed,
      metadata: { user: 'ada' },
      capabilities: { canShortCircuit: false },
    });
    await write(app, { cacheKey: shadowed.cacheKey, metadata: { user: 'ada' } });
    expect((await optimize(app, { request: spaced, metadata: { user: 'ada' } })).cacheHit).toBe(true);
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('gw_optimizer_cache_lookups_total{result="near_hit"} 2');
    expect(metrics).not.toContain('gw_optimizer_cache_lookups_total{result="hit"}');
  });

  it('measures a near-duplicate hit on a shadow lane against the live answer', async () => {
    const { app } = await testApp();
    const shadow = { metadata: { user: 'ada' }, capabilities: { canShortCircuit: false } };
    const first = await optimize(app, { request: question, ...shadow });
    await write(app, { cacheKey: first.cacheKey, metadata: { user: 'ada' } });
    const spaced = { ...question, messages: [{ role: 'user', content: 'Capital of  France?' }] };
    const near = await optimize(app, { request: spaced, ...shadow });
    expect(near.cacheHit).toBe(false);
    await write(app, { cacheKey: near.cacheKey, metadata: { user: 'ada' }, response: { ...answer, id: 'chatcmpl-2' } });
    const settings = (
      await app.inject({
        method: 'GET',
        url: '/admin/optimizer/settings',
        headers: { authorization: 'Bearer admin-token-0123456789abcdef' },
      })
    ).json();
    expect(settings.semanticCacheShadow).toEqual({ lookups: 2, hits: 1, strictPrecision: 0, durable: false });
  });

  it('never crosses partitions: another user, team-only or another tenant misses', async () => {
    const { app } = await testApp();
    const first = await optimize(app, { request: question, metadata: { user: 'ada', team: 'core' } });
    await write(app, { cacheKey: first.cacheKey, metadata: { user: 'ada', team: 'core' } });
    expect((await optimize(app, { request: question, metadata: { user: 'bob', team: 'core' } })).cacheHit).toBe(false);
    expect((await optimize(app, { request: question, metadata: { team: 'core' } })).cacheHit).toBe(false);
    expect((await optimize(app, { request: question, metadata: { user: 'ada', tenant: 'acme' } })).cacheHit).toBe(
      false,
    );
    expect((await optimize(app, { request: question, metadata: { user: 'ada', tenant: 'default' } })).cacheHit).toBe(
      true,
    );
  });

  it('has no partition without user, team or gateway session: not eligible, no key, nothing stored', async () => {
    const { app } = await testApp();
    const response = await optimize(app, {
      request: question,
      metadata: { userId: 'ada', teamId: 'core', sessionId: 'adapter' },
    });
    expect(response.cacheEligible).toBe(false);
    expect(response).not.toHaveProperty('cacheKey');
    const keyed = await optimize(app, { request: question, metadata: { gatewaySessionId: 'g1' } });
    expect(keyed.cacheEligible).toBe(true);
    expect((await write(app, { cacheKey: keyed.cacheKey, metadata: { userId: 'ada' } })).json()).toEqual({
      ok: true,
      stored: false,
    });
  });

  it('refuses a key minted for another scope', async () => {
    const { app } = await testApp();
    const ada = await optimize(app, { request: question, metadata: { user: 'ada' } });
    expect((await write(app, { cacheKey: ada.cacheKey, metadata: { user: 'bob' } })).json()).toEqual({
      ok: true,
      stored: false,
    });
    expect((await write(app, { cacheKey: 'gwc2.l.forged', metadata: { user: 'bob' } })).json()).toEqual({
      ok: true,
      stored: false,
    });
    expect((await optimize(app, { request: question, metadata: { user: 'bob' } })).cacheHit).toBe(false);
  });

  it('never serves shadow-only entries, even when the flag is later dropped', async () => {
    const { app } = await testApp();
    const shadow = await optimize(app, {
      request: question,
      metadata: { user: 'ada' },
      capabilities: { canShortCircuit: false },
    });
    expect(shadow).toMatchObject({ cacheEligible: true, cacheShadowOnly: true });
    expect(shadow.cacheKey).toMatch(/^gwc2\.s\./);
    // The flag is dropped on the write, and the lane letter flipped: the first stays shadow, the second is refused.
    expect((await write(app, { cacheKey: shadow.cacheKey, metadata: { user: 'ada' } })).json()).toEqual({ ok: true });
    expect(
      (await write(app, { cacheKey: shadow.cacheKey.replace('gwc2.s.', 'gwc2.l.'), metadata: { user: 'ada' } })).json(),
    ).toEqual({ ok: true, stored: false });
    expect((await optimize(app, { request: question, metadata: { user: 'ada' } })).cacheHit).toBe(false);
    const live = await optimize(app, { request: question, metadata: { user: 'ada' } });
    await write(app, { cacheKey: live.cacheKey, metadata: { user: 'ada' }, shadowOnly: true });
    expect((await optimize(app, { request: question, metadata: { user: 'ada' } })).cacheHit).toBe(false);
  });

  it('expires entries after their ttl', async () => {
    const { app, clock } = await testApp();
    const first = await optimize(app, { request: question, metadata: { user: 'ada' } });
    await write(app, { cacheKey: first.cacheKey, metadata: { user: 'ada' }, ttlSeconds: 60 });
    clock.advance(59_000);
    expect((await optimize(app, { request: question, metadata: { user: 'ada' } })).cacheHit).toBe(true);
    clock.advance(2_000);
    expect((await optimize(app, { request: question, metadata: { user: 'ada' } })).cacheHit).toBe(false);
  });

  it('re-derives the key under a per-tenant bearer and requires the request', async () => {
    const tenantToken = 'acme-tenant-token-0123456789';
    const { app } = await testApp({ config: { GW_OPTIMIZER_TENANT_TOKENS: [{ tenant: 'acme', token: tenantToken }] } });
    const headers = { authorization: `Bearer ${tenantToken}` };
    const first = await optimize(app, { request: question, metadata: { user: 'ada', tenant: 'globex' } }, headers);
    expect((await write(app, { cacheKey: first.cacheKey, metadata: { user: 'ada' } }, headers)).statusCode).toBe(400);
    expect((await write(app, { cacheKey: first.cacheKey, metadata: { user: 'ada' } }, headers)).json().error.code).toBe(
      'cache_request_required',
    );
    expect(
      (
        await write(
          app,
          { cacheKey: first.cacheKey, request: question, metadata: { user: 'ada', tenant: 'globex' } },
          headers,
        )
      ).json(),
    ).toEqual({ ok: true });
    // Stored under acme, whatever metadata claimed: the shared-token lane asking for globex misses, acme hits.
    expect(
      (
        await optimize(
          app,
          { request: question, metadata: { user: 'ada', tenant: 'globex' } },
          { authorization: `Bearer ${optimizerToken}` },
        )
      ).cacheHit,
    ).toBe(false);
    expect(
      (
        await optimize(
          app,
          { request: question, metadata: { user: 'ada', tenant: 'acme' } },
          { authorization: `Bearer ${optimizerToken}` },
        )
      ).cacheHit,
    ).toBe(true);
  });

  it('never serves an answer cached for one endpoint to the same body sent to another, in either tier', async () => {
    const { app } = await testApp();
    const body = { model: 'claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'x' }] };
    const chat = await optimize(app, { request: body, metadata: { user: 'ada' } });
    expect((await write(app, { cacheKey: chat.cacheKey, metadata: { user: 'ada' } })).json()).toEqual({ ok: true });
    const messages = await optimize(app, { endpoint: '/v1/messages', request: body, metadata: { user: 'ada' } });
    expect(messages).toMatchObject({ cacheHit: false, cacheEligible: true });
    expect(messages).not.toHaveProperty('cachedResponse');
    expect(messages.cacheKey).not.toBe(chat.cacheKey);
    const spaced = { ...body, messages: [{ role: 'user', content: ' x\u200B' }] };
    expect(
      (await optimize(app, { endpoint: '/v1/messages', request: spaced, metadata: { user: 'ada' } })).cacheHit,
    ).toBe(false);
    expect(await optimize(app, { request: body, metadata: { user: 'ada' } })).toMatchObject({
      cacheHit: true,
      cachedResponse: answer,
      cacheKey: chat.cacheKey,
    });
    expect(await optimize(app, { request: spaced, metadata: { user: 'ada' } })).toMatchObject({
      cacheHit: true,
      cachedResponse: answer,
    });
  });

  it('stores a write under its key’s endpoint and refuses a key minted for another endpoint or of a retired shape', async () => {
    const { app } = await testApp();
    const chat = await optimize(app, { request: question, metadata: { user: 'ada' } });
    const messages = await optimize(app, { endpoint: '/v1/messages', request: question, metadata: { user: 'ada' } });
    // The endpoint segment of one key spliced into the other does not open either.
    const [, , messagesScope] = messages.cacheKey.split('.');
    const [, , chatScope] = chat.cacheKey.split('.');
    expect(
      (
        await write(app, { cacheKey: chat.cacheKey.replace(chatScope, messagesScope), metadata: { user: 'ada' } })
      ).json(),
    ).toEqual({ ok: true, stored: false });
    // A `gwc1` key (before the endpoint joined the key) is refused like any key this service did not mint.
    expect(
      (await write(app, { cacheKey: `gwc1.l.${'a'.repeat(64)}.${'0'.repeat(32)}`, metadata: { user: 'ada' } })).json(),
    ).toEqual({ ok: true, stored: false });
    expect((await write(app, { cacheKey: 'anything', metadata: { user: 'ada' } })).json()).toEqual({
      ok: true,
      stored: false,
    });
    expect((await write(app, { cacheKey: chat.cacheKey, metadata: { user: 'ada' } })).json()).toEqual({ ok: true });
    expect(
      (await optimize(app, { endpoint: '/v1/messages', request: question, metadata: { user: 'ada' } })).cacheHit,
    ).toBe(false);
    expect((await optimize(app, { request: question, metadata: { user: 'ada' } })).cacheHit).toBe(true);
  });

  it('re-derives a per-tenant write for the endpoint and lane its key carries, and refuses a key that carries none', async () => {
    const tenantToken = 'acme-tenant-token-0123456789';
    const { app } = await testApp({ config: { GW_OPTIMIZER_TENANT_TOKENS: [{ tenant: 'acme', token: tenantToken }] } });
    const headers = { authorization: `Bearer ${tenantToken}` };
    const metadata = { user: 'ada' };
    const chat = await optimize(app, { request: question, metadata }, headers);
    for (const cacheKey of ['anything', `gwc1.l.${'a'.repeat(64)}.${'0'.repeat(32)}`]) {
      expect((await write(app, { cacheKey, request: question, metadata }, headers)).json()).toEqual({
        ok: true,
        stored: false,
      });
    }
    expect((await write(app, { cacheKey: chat.cacheKey, request: question, metadata }, headers)).json()).toEqual({
      ok: true,
    });
    expect((await optimize(app, { endpoint: '/v1/messages', request: question, metadata }, headers)).cacheHit).toBe(
      false,
    );
    expect((await optimize(app, { request: question, metadata }, headers)).cacheHit).toBe(true);
    const responses = { model: 'gpt-4o', input: [{ role: 'user', content: 'Capital of France?' }] };
    const minted = await optimize(app, { endpoint: '/v1/responses', request: responses, metadata }, headers);
    expect((await write(app, { cacheKey: minted.cacheKey, request: responses, metadata }, headers)).json()).toEqual({
      ok: true,
    });
    expect((await optimize(app, { endpoint: '/v1/responses', request: responses, metadata }, headers)).cacheHit).toBe(
      true,
    );
    expect((await optimize(app, { request: responses, metadata }, headers)).cacheHit).toBe(false);
    // A shadow-lane key stays measurement-only when re-derived: stored, never served.
    const shadowQuestion = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Capital of Spain?' }] };
    const shadow = await optimize(
      app,
      { request: shadowQuestion, metadata, capabilities: { canShortCircuit: false } },
      headers,
    );
    expect(shadow.cacheKey).toMatch(/^gwc2\.s\./);
    expect(
      (await write(app, { cacheKey: shadow.cacheKey, request: shadowQuestion, metadata }, headers)).json(),
    ).toEqual({ ok: true });
    expect((await optimize(app, { request: shadowQuestion, metadata }, headers)).cacheHit).toBe(false);
  });

  it('reports shadow telemetry in the settings view', async () => {
    const { app } = await testApp();
    const shadow = await optimize(app, {
      request: question,
      metadata: { user: 'ada' },
      capabilities: { canShortCircuit: false },
    });
    await write(app, { cacheKey: shadow.cacheKey, metadata: { user: 'ada' } });
    await optimize(app, { request: question, metadata: { user: 'ada' }, capabilities: { canShortCircuit: false } });
    await write(app, { cacheKey: shadow.cacheKey, metadata: { user: 'ada' } });
    const settings = (
      await app.inject({
        method: 'GET',
        url: '/admin/optimizer/settings',
        headers: { authorization: 'Bearer admin-token-0123456789abcdef' },
      })
    ).json();
    expect(settings.semanticCacheShadow).toEqual({ lookups: 2, hits: 1, strictPrecision: 1, durable: false });
  });

  it('reports the fleet’s shadow counts from the shared store, a stopping replica’s included', async () => {
    const shared = await createIsolatedPgDb(testDbUrl(process.env));
    try {
      const replicaA = (await testApp({ db: shared.db })).app;
      const replicaB = (await testApp({ db: shared.db })).app;
      const shadow = { request: question, metadata: { user: 'ada' }, capabilities: { canShortCircuit: false } };
      const first = await optimize(replicaA, shadow);
      await write(replicaA, { cacheKey: first.cacheKey, metadata: { user: 'ada' } });
      await optimize(replicaA, shadow);
      await write(replicaA, { cacheKey: first.cacheKey, metadata: { user: 'ada' } });
      await replicaA.close(); // flushes what it counted
      await optimize(replicaB, shadow); // B's own cache is empty: a lookup, no hit, not yet flushed
      const view = (
        await replicaB.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth })
      ).json();
      expect(view.semanticCacheShadow).toEqual({ lookups: 3, hits: 1, strictPrecision: 1, durable: true });
      await replicaB.close();
      const { rows } = await shared.db.query<{ lookups: number; hits: number }>(
        'SELECT sum(lookups)::bigint AS lookups, sum(hits)::bigint AS hits FROM optimizer_cache_shadow',
      );
      expect(rows[0]).toEqual({ lookups: 3, hits: 1 });
    } finally {
      await shared.dispose();
    }
  });
});
