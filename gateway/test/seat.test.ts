import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rateLimited, startAnthropicSimulator, startOpenAiSimulator, type SimulatorHandle } from '@gw/testkit';
import { adminHeaders, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';
import { spendRowOf, spendRows } from './inference-helpers.js';

const orgKey = 'sk-ant-org-key-0000';
const seatToken = `sk-ant-oat01-CANARY${'q'.repeat(24)}`;

describe('subscription seats', () => {
  let anthropic: SimulatorHandle;
  let openai: SimulatorHandle;
  let gateway: TestGateway;
  let gwKey: string;

  beforeAll(async () => {
    anthropic = await startAnthropicSimulator({ apiKey: [orgKey, seatToken] });
    openai = await startOpenAiSimulator({ apiKey: 'sk-openai' });
    gateway = await startTestGateway({ env: { GW_CUSTOM_HOST_ALLOWLIST: '127.0.0.1' } });
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/providers/anthropic/key',
      headers: adminHeaders,
      payload: { apiKey: orgKey, baseUrl: anthropic.url },
    });
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/providers/openai/key',
      headers: adminHeaders,
      payload: { apiKey: 'sk-openai', baseUrl: openai.baseURL },
    });
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing',
      headers: adminHeaders,
      payload: { defaultProvider: 'openai', defaultModel: 'gpt-4.1-mini' },
    });
    gwKey = (await mintClientKey(gateway.app)).key;
  });
  afterAll(async () => {
    await gateway.close();
    await anthropic.close();
    await openai.close();
  });
  beforeEach(async () => {
    anthropic.reset();
    openai.reset();
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/settings',
      headers: adminHeaders,
      payload: { seatOverflow: false },
    });
  });

  const seatHeaders = {
    'x-gw-api-key': '',
    authorization: `Bearer ${seatToken}`,
    'anthropic-version': '2023-06-01',
    'anthropic-beta': 'oauth-2025-04-20',
    'user-agent': 'claude-cli/2.0.0',
    'x-app': 'cli',
    'x-stainless-os': 'Linux',
    'x-claude-code-session-id': 'abc',
    'x-forwarded-for': '10.0.0.1',
    forwarded: 'for=10.0.0.1',
    'x-real-ip': '10.0.0.1',
    via: '1.1 edge',
    'cf-ray': 'ray',
    cookie: 'session=1',
    'x-gw-config': JSON.stringify({ provider: 'openai' }),
  };
  const messages = (headers: Record<string, string> = {}, body: Record<string, unknown> = {}) =>
    gateway.app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: { ...seatHeaders, 'x-gw-api-key': gwKey, ...headers },
      payload: {
        model: 'claude-sonnet-4-5',
        max_tokens: 999_999,
        messages: [{ role: 'user', content: 'hi' }],
        ...body,
      },
    });

  it('forwards the developer token with exactly the kept header families, skips routing and never clamps', async () => {
    const response = await messages();
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-gw-auth-mode']).toBe('passthrough');
    const upstream = anthropic.requests[0];
    expect(upstream.headers.authorization).toBe(`Bearer ${seatToken}`);
    expect(upstream.headers['x-api-key']).toBeUndefined();
    for (const kept of ['anthropic-beta', 'user-agent', 'x-app', 'x-stainless-os', 'x-claude-code-session-id'])
      expect(upstream.headers[kept], kept).toBe(seatHeaders[kept as keyof typeof seatHeaders]);
    for (const stripped of [
      'x-forwarded-for',
      'forwarded',
      'x-real-ip',
      'via',
      'cf-ray',
      'cookie',
      'x-gw-api-key',
      'x-gw-config',
    ])
      expect(upstream.headers[stripped], stripped).toBeUndefined();
    expect(upstream.json).toMatchObject({ max_tokens: 999_999 });
    expect(openai.requests).toHaveLength(0);
    expect(await spendRowOf(gateway, response)).toMatchObject({
      billing_mode: 'passthrough',
      provider: 'anthropic',
      outcome: 'success',
    });
  });

  it('never stores or logs the subscription token', async () => {
    await messages();
    expect(JSON.stringify(await spendRows(gateway))).not.toContain('CANARY');
    expect(gateway.logs.join('')).not.toContain('CANARY');
  });

  it('keeps the client headers with x-gw-custom-host (allowlisted) and refuses unlisted hosts', async () => {
    const response = await messages({ 'x-gw-custom-host': anthropic.url, 'x-custom-client': 'yes' });
    expect(response.statusCode).toBe(200);
    expect(anthropic.requests[0].headers['x-custom-client']).toBe('yes');
    expect(anthropic.requests[0].headers['x-forwarded-for']).toBeUndefined();
    expect((await messages({ 'x-gw-custom-host': 'http://localhost:1' })).statusCode).toBe(400);
  });

  it('overflows onto the organization key when the seat is out of capacity, only when enabled, capped per hour', async () => {
    anthropic.respondWhen(
      (request) => request.headers.authorization === `Bearer ${seatToken}`,
      rateLimited({ retryAfterSeconds: 1 }),
    );
    expect((await messages()).statusCode).toBe(429);
    const enabled = await gateway.app.inject({
      method: 'PUT',
      url: '/admin/settings',
      headers: adminHeaders,
      payload: { seatOverflow: true, seatOverflowHourlyMaxRequests: 1 },
    });
    expect(enabled.statusCode).toBe(200);
    gateway.clock.advance(2_000);
    const overflowed = await messages();
    expect(overflowed.statusCode).toBe(200);
    expect(overflowed.headers['x-gw-auth-mode']).toBe('overflow');
    expect(anthropic.requests.at(-1)!.headers['x-api-key']).toBe(orgKey);
    expect(await spendRowOf(gateway, overflowed)).toMatchObject({ billing_mode: 'subscription-extra' });
    gateway.clock.advance(2_000);
    expect((await messages()).statusCode).toBe(429);
    gateway.clock.advance(2_000);
    const custom = await messages({ 'x-gw-custom-host': anthropic.url });
    expect(custom.statusCode).toBe(429);
  });

  it('serves the seat chat lane from a Responses-style envelope with gw-default', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/v1/seat/vendor/chat/completions',
      headers: { authorization: `Bearer ${gwKey}` },
      payload: {
        instructions: 'Be brief.',
        input: 'hello',
        max_output_tokens: 50,
        store: true,
        previous_response_id: 'resp_1',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().object).toBe('chat.completion');
    expect(openai.requests[0].json).toEqual({
      model: 'gpt-4.1-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hello' },
      ],
      max_tokens: 50,
    });
  });

  it('forwards the vendor lane with the seat token', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/v1/vendor/max/seat-1/messages',
      headers: { ...seatHeaders, 'x-gw-api-key': gwKey },
      payload: { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(response.statusCode).toBe(200);
    expect(anthropic.requests[0].path).toBe('/v1/messages');
    expect(anthropic.requests[0].headers.authorization).toBe(`Bearer ${seatToken}`);
    // An SDK whose base URL is the lane prefix adds the API version itself.
    const versioned = await gateway.app.inject({
      method: 'POST',
      url: '/v1/vendor/max/seat-1/v1/messages',
      headers: { ...seatHeaders, 'x-gw-api-key': gwKey },
      payload: { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(versioned.statusCode).toBe(200);
    expect(anthropic.requests[1].path).toBe('/v1/messages');
    const refused = await gateway.app.inject({
      method: 'POST',
      url: '/v1/vendor/max/seat-1/messages',
      headers: { authorization: `Bearer ${gwKey}` },
      payload: {},
    });
    expect(refused.statusCode).toBe(400);
  });

  it('relays a vendor-lane stream as the provider sent it and meters its usage', async () => {
    anthropic.script({ usage: { inputTokens: 70, outputTokens: 12 } });
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/v1/vendor/max/seat-1/messages',
      headers: { ...seatHeaders, 'x-gw-api-key': gwKey },
      payload: {
        model: 'claude-sonnet-4-5',
        max_tokens: 64,
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/event-stream');
    expect(response.body).toContain('event: message_stop');
    const row = await spendRowOf(gateway, response);
    expect(row).toMatchObject({
      endpoint: '/v1/vendor/*',
      status: 200,
      stream: true,
      billing_mode: 'passthrough',
      prompt_tokens: 70,
      completion_tokens: 12,
    });
  });
});
