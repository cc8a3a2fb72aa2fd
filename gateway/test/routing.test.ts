import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rateLimited, startOpenAiSimulator, type SimulatorHandle } from '@gw/testkit';
import { adminHeaders, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';
import { spendRowOf, sseFrames } from './inference-helpers.js';

const serverKey = 'sk-server-held';

describe('routing and resilience', () => {
  let primary: SimulatorHandle;
  let backup: SimulatorHandle;
  let gateway: TestGateway;
  let auth: Record<string, string>;
  const waits: number[] = [];

  beforeAll(async () => {
    primary = await startOpenAiSimulator({ apiKey: serverKey });
    backup = await startOpenAiSimulator({ apiKey: serverKey });
    gateway = await startTestGateway();
    for (const [slug, simulator] of [
      ['primary', primary],
      ['backup', backup],
    ] as const) {
      const put = await gateway.app.inject({
        method: 'PUT',
        url: `/admin/v1/providers/${slug}/key`,
        headers: adminHeaders,
        payload: { type: 'openai-compatible', apiKey: serverKey, baseUrl: simulator.baseURL },
      });
      expect(put.statusCode).toBe(200);
    }
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing',
      headers: adminHeaders,
      payload: { defaultProvider: 'primary' },
    });
    auth = { authorization: `Bearer ${(await mintClientKey(gateway.app)).key}` };
    gateway.deps.inference.sleep = async (milliseconds) => {
      waits.push(milliseconds);
      gateway.clock.advance(milliseconds);
    };
  });
  afterAll(async () => {
    await gateway.close();
    await primary.close();
    await backup.close();
  });
  beforeEach(async () => {
    primary.reset();
    backup.reset();
    waits.length = 0;
    // Past the longest pause a test here leaves behind (a 600 s Retry-After), on every replica's view and in Coord.
    gateway.clock.advance(601_000);
  });

  const chat = (config: unknown, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { ...auth, ...(config ? { 'x-gw-config': JSON.stringify(config) } : {}), ...headers },
      payload: { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hello' }], ...extra },
    });

  const fallback = {
    mode: 'fallback',
    onStatusCodes: [429, 503],
    targets: [{ provider: 'primary' }, { provider: 'backup' }],
  };

  it('moves to the next target on a 503 and names the target that answered', async () => {
    primary.script({ status: 503 });
    const response = await chat(fallback);
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'x-gw-provider': 'backup',
      'x-gw-target': 'backup/gpt-4.1',
      'x-gw-attempts': '2',
    });
    expect(primary.requests).toHaveLength(1);
    expect(backup.requests).toHaveLength(1);
    expect(await spendRowOf(gateway, response)).toMatchObject({
      provider: 'backup',
      target: 'backup:gpt-4.1',
      attempts: 2,
      outcome: 'success',
    });
    expect((await gateway.app.inject({ method: 'GET', url: '/metrics' })).body).toMatch(
      /gw_upstream_attempts_total\{provider="primary",result="5xx"\} 1/,
    );
  });

  it('moves to the next target when the connection drops', async () => {
    primary.script({ dropConnection: true });
    const response = await chat(fallback);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-gw-provider']).toBe('backup');
  });

  it('retries a target on 429 honouring Retry-After (Portkey spelling)', async () => {
    primary.script(rateLimited({ retryAfterMs: 1500 }));
    const response = await chat({
      provider: 'primary',
      retry: { attempts: 2, on_status_codes: [429], use_retry_after_header: true },
    });
    expect(response.statusCode).toBe(200);
    expect(primary.requests).toHaveLength(2);
    expect(waits).toEqual([1500]);
  });

  it('never replays a stream after its first byte: a mid-stream drop is an SSE error and a failure', async () => {
    primary.script({ dropConnection: { afterEvents: 2 } });
    const response = await chat(fallback, { stream: true });
    expect(response.statusCode).toBe(200);
    expect(sseFrames(response.body).at(-1)?.data).toContain('"error"');
    expect(backup.requests).toHaveLength(0);
    expect(await spendRowOf(gateway, response)).toMatchObject({ outcome: 'error', provider: 'primary' });
  });

  it('pauses a throttled seat: short pauses are waited out, long ones answered 429 with Retry-After', async () => {
    primary.script(rateLimited({ retryAfterSeconds: 2 }));
    // The 429 itself is waited out and retried server-side: the client never sees a short throttle.
    const retried = await chat(null);
    expect(retried.statusCode).toBe(200);
    expect(waits).toEqual([2000]);
    expect(primary.requests).toHaveLength(2);

    primary.script(rateLimited({ retryAfterSeconds: 600 }));
    await chat(null);
    const before = primary.requests.length;
    const refused = await chat(null);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('upstream_throttled');
    expect(Number(refused.headers['retry-after'])).toBe(60);
    expect(primary.requests.length).toBe(before);
    const rerouted = await chat(fallback);
    expect(rerouted.headers['x-gw-provider']).toBe('backup');
  });

  it('rejects configs with credentials or unknown providers with 400', async () => {
    expect((await chat({ provider: 'primary', api_key: 'sk-nope' })).statusCode).toBe(400);
    expect((await chat({ targets: [{ provider: 'missing' }] })).json().error.code).toBe('unknown_provider');
    expect((await chat(null, {}, { 'x-gw-config': 'not json' })).statusCode).toBe(400);
  });

  it('routes model aliases and prices with per-model overrides', async () => {
    const aliases = await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing/aliases',
      headers: adminHeaders,
      payload: { aliases: { fast: { provider: 'backup', model: 'gpt-4.1-mini' } } },
    });
    expect(aliases.statusCode, aliases.body).toBe(200);
    // GET /v1/models lists the alias beside the providers' models.
    const listed = (await gateway.app.inject({ method: 'GET', url: '/v1/models', headers: auth })).json()
      .data as Array<{ id: string; owned_by: string }>;
    expect(listed).toContainEqual(expect.objectContaining({ id: 'fast', object: 'model', owned_by: 'backup' }));
    expect(listed.filter((model) => model.id === 'backup/gpt-4.1-mini')).toHaveLength(1);
    // GET /v1/models/{id} answers an alias and a listed <provider>/<model> itself, in the caller's shape.
    const upstreamBefore = backup.requests.length + primary.requests.length;
    expect((await gateway.app.inject({ method: 'GET', url: '/v1/models/fast', headers: auth })).json()).toEqual({
      id: 'fast',
      object: 'model',
      created: 0,
      owned_by: 'backup',
    });
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/v1/models/backup%2Fgpt-4.1-mini', headers: auth })).json(),
    ).toMatchObject({ id: 'backup/gpt-4.1-mini' });
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/v1/models/backup/gpt-4.1-mini', headers: auth })).json(),
    ).toMatchObject({ id: 'backup/gpt-4.1-mini' });
    expect(
      (
        await gateway.app.inject({
          method: 'GET',
          url: '/v1/models/fast',
          headers: { ...auth, 'anthropic-version': '2023-06-01' },
        })
      ).json(),
    ).toEqual({ type: 'model', id: 'fast', display_name: 'fast', created_at: '2025-01-01T00:00:00Z' });
    expect(backup.requests.length + primary.requests.length).toBe(upstreamBefore);
    expect((await gateway.app.inject({ method: 'GET', url: '/v1/models/fast' })).statusCode).toBe(401);
    const models = await gateway.app.inject({
      method: 'PUT',
      url: '/admin/pricing',
      headers: adminHeaders,
      payload: { models: { 'gpt-4.1-mini': { inputPerMTok: 100_000, outputPerMTok: 0 } } },
    });
    expect(models.statusCode, models.body).toBe(200);
    expect(models.headers.deprecation).toBe('true');
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: auth,
      payload: { model: 'fast', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(response.headers['x-gw-target']).toBe('backup/gpt-4.1-mini');
    expect(backup.requests[0]?.json).toMatchObject({ model: 'gpt-4.1-mini' });
    const row = await spendRowOf(gateway, response);
    expect(Number(row.cost_usd)).toBeCloseTo(Number(row.prompt_tokens) * 0.1, 6);
  });

  it('stores a validated default routing config and applies it to requests that choose nothing', async () => {
    const bad = await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing',
      headers: adminHeaders,
      payload: { defaultProvider: 'primary', config: { provider: 'primary', authorization: 'x' } },
    });
    expect(bad.statusCode).toBe(400);
    const good = await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing',
      headers: adminHeaders,
      payload: { defaultProvider: 'primary', config: fallback },
    });
    expect(good.statusCode).toBe(200);
    primary.script({ status: 503 });
    expect((await chat(null)).headers['x-gw-provider']).toBe('backup');
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing',
      headers: adminHeaders,
      payload: { defaultProvider: 'primary' },
    });
  });
});

describe('sticky load balancing across replicas', () => {
  it('routes every turn of a conversation to the same target on both replicas', async () => {
    const a = await startOpenAiSimulator({ apiKey: serverKey, record: false });
    const b = await startOpenAiSimulator({ apiKey: serverKey, record: false });
    const first = await startTestGateway();
    const second = await startTestGateway({ db: first.deps.db, coord: first.deps.coord });
    try {
      for (const [slug, simulator] of [
        ['a', a],
        ['b', b],
      ] as const) {
        await first.app.inject({
          method: 'PUT',
          url: `/admin/v1/providers/${slug}/key`,
          headers: adminHeaders,
          payload: { type: 'openai-compatible', apiKey: serverKey, baseUrl: simulator.baseURL },
        });
      }
      await first.app.inject({
        method: 'PUT',
        url: '/admin/v1/routing',
        headers: adminHeaders,
        payload: {
          defaultProvider: 'a',
          config: {
            mode: 'loadbalance',
            targets: [
              { provider: 'a', weight: 1 },
              { provider: 'b', weight: 1 },
            ],
          },
        },
      });
      await second.deps.providers.start();
      await second.deps.routing.start();
      const auth = { authorization: `Bearer ${(await mintClientKey(first.app)).key}` };
      const seen = new Set<string>();
      for (let conversation = 0; conversation < 12; conversation += 1) {
        const opening = [
          { role: 'system', content: 'You help.' },
          { role: 'user', content: `task ${conversation}` },
        ];
        const targets = new Set<string>();
        for (const [turn, replica] of [first, second, first, second].entries()) {
          const messages = [
            ...opening,
            ...(turn > 0
              ? [
                  { role: 'assistant', content: 'ok' },
                  { role: 'user', content: `turn ${turn}` },
                ]
              : []),
          ];
          const response = await replica.app.inject({
            method: 'POST',
            url: '/v1/chat/completions',
            headers: auth,
            payload: { model: 'gpt-4.1', messages },
          });
          targets.add(String(response.headers['x-gw-provider']));
        }
        expect(targets.size).toBe(1);
        seen.add([...targets][0]);
      }
      expect(seen).toEqual(new Set(['a', 'b']));
    } finally {
      await second.app.close();
      await first.close();
      await a.close();
      await b.close();
    }
  });
});
