import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { chatSession, messagesOf, plainLog } from '../src/pipeline/__fixtures__/conversations.js';
import { runPipeline } from '../src/pipeline/index.js';
import { auth, testApp, type TestApp } from './support/test-app.js';

// Issue 6: the same input gives byte-identical output. Whether the provider's prompt cache expired since the
// previous turn still decides what settled history may be rewritten; the service measures it, the bytes never carry it.
let store: TestDb;
beforeAll(async () => {
  store = await createMemoryPgliteDb();
});
afterAll(async () => {
  await store.dispose();
});

const endpoint = '/v1/chat/completions';
const metadata = { user: 'ada', gatewaySessionId: 'g-turns' };
const capabilities = { providerPromptCache: true, providerPromptCacheKnown: true };

async function optimize(harness: TestApp, body: Record<string, unknown>) {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/v1/optimize',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  expect(response.statusCode).toBe(200);
  return response;
}

type Pin = Record<string, unknown>;

async function twoTurns(gapMs: number, adjustPins: (pins: Pin[]) => Pin[] = (pins) => pins) {
  const harness = await testApp({ db: store.db, runPipeline });
  const first = await optimize(harness, {
    endpoint,
    request: chatSession([plainLog]),
    pins: [],
    metadata,
    capabilities,
  });
  harness.clock.advance(gapMs);
  const secondBody = {
    endpoint,
    request: chatSession([plainLog, 'ok']),
    pins: adjustPins(first.json().pins),
    metadata,
    capabilities,
  };
  return { harness, secondBody, second: await optimize(harness, secondBody) };
}

describe('turn timing without clock readings in the response', () => {
  it('answers the same bytes for the same request with pins, however far apart the two calls are', async () => {
    const harness = await testApp({ db: store.db, runPipeline });
    const body = { endpoint, request: chatSession([plainLog]), pins: [], metadata, capabilities };
    const first = await optimize(harness, body);
    harness.clock.advance(90_000);
    const again = await optimize(harness, body);
    expect(again.body).toBe(first.body);
    expect(first.body).not.toContain(String(harness.clock.now()));
    for (const pin of first.json().pins as Pin[]) expect(pin).not.toHaveProperty('at');
  });

  it('answers a repeated later turn with the same bytes too', async () => {
    const { harness, secondBody, second } = await twoTurns(30_000);
    harness.clock.advance(30_000);
    expect((await optimize(harness, secondBody)).body).toBe(second.body);
  });

  it('leaves settled history as the provider cached it while warm, and rewrites it once that cache has expired', async () => {
    const warm = (await twoTurns(30_000)).second.json();
    expect(messagesOf(warm.request)[3]?.content).toBe(plainLog);
    const cold = (await twoTurns(6 * 60_000)).second.json();
    expect(messagesOf(cold.request)[3]?.content).toContain('gw_retrieve');
    expect((cold.pins as Pin[]).some((pin) => pin.kind === 'elide_tool_output' && pin.messageIndex === 3)).toBe(true);
  });

  it('replays a watermark an older optimizer stamped with `at`, ignoring the stamp, and answers without one', async () => {
    const stamped = (pins: Pin[]) => pins.map((pin) => (pin.kind === 'prefix_watermark' ? { ...pin, at: 0 } : pin));
    const stampedAnswer = (await twoTurns(30_000, stamped)).second.json();
    const plainAnswer = (await twoTurns(30_000)).second.json();
    // Everything but the id, which is derived from the request bytes (and the stamp is in them).
    expect({ ...stampedAnswer, optimizationId: undefined }).toEqual({ ...plainAnswer, optimizationId: undefined });
    expect(messagesOf(stampedAnswer.request)[3]?.content).toBe(plainLog);
    for (const pin of stampedAnswer.pins as Pin[]) expect(pin).not.toHaveProperty('at');
  });

  it('treats a turn this replica never answered as a warm cache, the side that keeps bytes stable', async () => {
    const first = await optimize(await testApp({ db: store.db, runPipeline }), {
      endpoint,
      request: chatSession([plainLog]),
      pins: [],
      metadata,
      capabilities,
    });
    const replica = await testApp({ db: store.db, runPipeline });
    replica.clock.advance(6 * 60_000);
    const second = (
      await optimize(replica, {
        endpoint,
        request: chatSession([plainLog, 'ok']),
        pins: first.json().pins,
        metadata,
        capabilities,
      })
    ).json();
    expect(messagesOf(second.request)[3]?.content).toBe(plainLog);
  });
});
