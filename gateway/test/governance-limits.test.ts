import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoord, type Coord } from '@gw/platform';
import {
  startAnthropicSimulator,
  startOpenAiSimulator,
  type SimulatorHandle,
  createIsolatedPgDb,
  testDbUrl,
  testRedisUrl,
  type TestDb,
} from '@gw/testkit';
import { anthropicServerKey, openAiServerKey, spendRowOf, type InferenceFixture } from './inference-helpers.js';
import { mintClientKey, startTestGateway, type TestGateway } from './helpers.js';
import { recordedSpend } from './spend-signals.js';
import {
  admin,
  answerAlways,
  chat,
  configureProviders,
  metered,
  startGovernanceFixture,
} from './governance-fixture.js';

async function keyIdOf(gateway: TestGateway, key: string): Promise<string> {
  return (
    await gateway.app.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${key}` } })
  ).json().key.id;
}

describe('rate and concurrency limits', () => {
  let fixture: InferenceFixture;
  beforeAll(async () => {
    fixture = await startGovernanceFixture();
  });
  afterAll(async () => {
    await fixture.close();
  });
  const app = () => fixture.gateway.app;

  it('answers 429 with Retry-After past the per-key rate, keeps keys apart, and admits again once the window slides', async () => {
    expect((await admin(app(), 'PUT', '/admin/rate-limits', { defaults: { requestsPerMinute: 3 } })).statusCode).toBe(
      200,
    );
    const other = await mintClientKey(app(), { user: 'grace@example.com', team: 'navy' });
    try {
      for (let call = 0; call < 3; call += 1) expect((await chat(app(), fixture.clientKey)).statusCode).toBe(200);
      const limited = await chat(app(), fixture.clientKey);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toMatchObject({ code: 'rate_limit_exceeded', type: 'rate_limit_error' });
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(Number(limited.headers['retry-after-ms'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after-ms'])).toBeLessThanOrEqual(60_000);
      expect(await spendRowOf(fixture.gateway, limited)).toMatchObject({
        outcome: 'rejected',
        status: 429,
        error_code: 'rate_limit_exceeded',
      });
      // Self-service and model listings are not metered calls: they stay available.
      expect(
        (await app().inject({ method: 'GET', url: '/v1/me/limits', headers: fixture.auth })).json().rateLimits,
      ).toEqual({ requestsPerMinute: 3, concurrentRequests: null });
      expect((await chat(app(), other.key)).statusCode).toBe(200);
      fixture.gateway.clock.advance(60_001);
      expect((await chat(app(), fixture.clientKey)).statusCode).toBe(200);
    } finally {
      await admin(app(), 'PUT', '/admin/rate-limits', {});
    }
  });

  it('holds a concurrency slot while a stream runs and frees it the moment the client disconnects', async () => {
    const keyId = await keyIdOf(fixture.gateway, fixture.clientKey);
    const put = await admin(app(), 'PUT', '/admin/v1/users/rate-limits', {
      keys: { [keyId]: { concurrentRequests: 1 } },
    });
    expect(put.json()).toMatchObject({ keys: { [keyId]: { concurrentRequests: 1 } }, revision: expect.any(Number) });
    const stop = answerAlways(fixture.openai, { eventDelayMs: 150 });
    const origin = await app().listen({ port: 0, host: '127.0.0.1' });
    const abort = new AbortController();
    try {
      const stream = await fetch(`${origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...fixture.auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gpt-4.1',
          stream: true,
          messages: [{ role: 'user', content: 'tell me a long story about limits' }],
        }),
        signal: abort.signal,
      });
      expect(stream.status).toBe(200);
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();

      const busy = await chat(app(), fixture.clientKey);
      expect(busy.statusCode).toBe(429);
      expect(busy.json().error.code).toBe('concurrency_limit_exceeded');
      expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);

      abort.abort();
      await reader.cancel().catch(() => undefined);
      // The gateway saw the client leave once the stream's spend record exists (the slot is given back on that same
      // 'close'); `metered` then waits for the give-back itself.
      const traceId = stream.headers.get('x-gw-trace-id');
      await recordedSpend(fixture.gateway, (record) => record.traceId === traceId);
      await metered(fixture.gateway);
      const after = await chat(app(), fixture.clientKey);
      expect(after.statusCode).toBe(200);
    } finally {
      stop();
      abort.abort();
      await admin(app(), 'PUT', '/admin/v1/users/rate-limits', {});
    }
  });

  it('rejects unknown limit fields and stale revisions', async () => {
    expect((await admin(app(), 'PUT', '/admin/rate-limits', { defaults: { rpm: 5 } })).statusCode).toBe(400);
    const current = (await admin(app(), 'GET', '/admin/v1/users/rate-limits')).json();
    expect(
      (await admin(app(), 'PUT', '/admin/rate-limits', { expectedRevision: current.revision + 7 })).statusCode,
    ).toBe(409);
  });
});

describe('limits and counters across replicas (Redis)', () => {
  let isolated: TestDb;
  let coords: Coord[];
  let replicas: TestGateway[];
  let openai: SimulatorHandle;
  let anthropic: SimulatorHandle;
  beforeAll(async () => {
    isolated = await createIsolatedPgDb(testDbUrl(process.env));
    const prefix = `gwtest-${randomBytes(6).toString('hex')}`;
    coords = await Promise.all([
      createCoord({ redisUrl: testRedisUrl(process.env), prefix }),
      createCoord({ redisUrl: testRedisUrl(process.env), prefix }),
    ]);
    openai = await startOpenAiSimulator({ apiKey: openAiServerKey });
    anthropic = await startAnthropicSimulator({ apiKey: anthropicServerKey });
    const first = await startTestGateway({ db: isolated.db, coord: coords[0] });
    await configureProviders(first, openai, anthropic);
    replicas = [first, await startTestGateway({ db: isolated.db, coord: coords[1] })];
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    for (const coord of coords) await coord.close();
    await isolated.dispose();
    await openai.close();
    await anthropic.close();
  });

  it('counts one rate limit and one cap across every replica', async () => {
    const [a, b] = replicas as [TestGateway, TestGateway];
    const { key } = await mintClientKey(a.app, { user: 'replicated@example.com', team: 'sre' });
    const stop = answerAlways(openai, { usage: { inputTokens: 20, outputTokens: 20 } });
    try {
      await admin(a.app, 'PUT', '/admin/rate-limits', { defaults: { requestsPerMinute: 2 } });
      await admin(a.app, 'PATCH', '/admin/user-caps/replicated@example.com', { monthlyTokens: 50 });
      // Replica B reloads both documents when A's invalidations reach it over Redis.
      const { caps, limits } = b.deps.governance.stores;
      await caps.reached(() => caps.get('replicated@example.com') !== undefined);
      await limits.reached(() => limits.effective('x', null).requestsPerMinute === 2);
      expect((await chat(a.app, key)).statusCode).toBe(200);
      await metered(a);
      // 40 of 50 tokens used on replica A: replica B still admits, and sees the usage.
      expect((await chat(b.app, key)).statusCode).toBe(200);
      await metered(b);
      expect(
        (
          await b.app.inject({ method: 'GET', url: '/v1/me/usage', headers: { authorization: `Bearer ${key}` } })
        ).json(),
      ).toMatchObject({ tokens: 80, requests: 2 });
      // The third request is over both the shared rate (2/min) and the shared cap; the rate limit answers first.
      const third = await chat(a.app, key);
      expect(third.statusCode).toBe(429);
      await admin(a.app, 'PUT', '/admin/rate-limits', {});
      await limits.reached(() => limits.effective('x', null).requestsPerMinute === null);
      const capped = await chat(b.app, key);
      expect(capped.statusCode).toBe(402);
      expect(capped.json().error.code).toBe('user_token_cap_exceeded');
    } finally {
      stop();
    }
  });
});
