import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rateLimited, startAnthropicSimulator, type SimulatorHandle } from '@gw/testkit';
import { adminHeaders, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';
import { startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

const chatBody = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };
const messagesBody = { model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };

// A provider 429 whose pause fits GW_ANTHROPIC_THROTTLE_WAIT_MS is waited out server-side on every lane; a longer one
// is relayed with Retry-After. A seat with overflow on goes to the organization key at once instead of waiting.
describe('provider throttling on the organization-key lanes', () => {
  let fixture: InferenceFixture;
  beforeAll(async () => {
    fixture = await startInferenceFixture({ env: { GW_ANTHROPIC_THROTTLE_WAIT_MS: '2000' } });
  });
  afterAll(async () => {
    await fixture.close();
  });
  beforeEach(() => {
    fixture.openai.reset();
    fixture.anthropic.reset();
  });
  // Each test throttles a provider of its own: the pause a 429 leaves behind is shared by the provider's requests.
  const send = (url: string, payload: Record<string, unknown>, provider: string) =>
    fixture.gateway.app.inject({
      method: 'POST',
      url,
      headers: { ...fixture.auth, 'x-gw-provider': provider },
      payload,
    });

  it('waits out a short 429 on the chat lane and answers the retry', async () => {
    fixture.openai.failNext(1, rateLimited({ retryAfterMs: 30 }));
    const response = await send('/v1/chat/completions', chatBody, 'openai');
    expect(response.statusCode).toBe(200);
    expect(fixture.openai.requests).toHaveLength(2);
  });

  it('waits out a short 429 on the Messages lane (organization key) too', async () => {
    fixture.anthropic.failNext(1, rateLimited({ retryAfterMs: 30 }));
    const response = await send('/v1/messages', messagesBody, 'anthropic');
    expect(response.statusCode).toBe(200);
    expect(fixture.anthropic.requests).toHaveLength(2);
  });

  it('waits out a short 429 on the passthrough lane (/v1/responses) too', async () => {
    fixture.openai.failNext(1, rateLimited({ retryAfterMs: 30 }));
    const response = await send('/v1/responses', { model: 'gpt-4o', input: 'hi' }, 'openai');
    expect(response.statusCode).toBe(200);
    expect(fixture.openai.requests).toHaveLength(2);
  });

  it('relays a 429 whose pause is longer than the allowed wait, with Retry-After, without a second try', async () => {
    await fixture.gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/providers/slow/key',
      headers: adminHeaders,
      payload: { type: 'openai', apiKey: 'sk-server-held-openai-0000', baseUrl: fixture.openai.baseURL },
    });
    fixture.openai.failNext(1, rateLimited({ retryAfterSeconds: 30 }));
    const response = await send('/v1/chat/completions', chatBody, 'slow');
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers['retry-after'])).toBe(30);
    expect(fixture.openai.requests).toHaveLength(1);
  });
});

describe('seat throttling and overflow', () => {
  const orgKey = 'sk-ant-org-key-0000';
  const seatToken = (session: string) => `sk-ant-oat01-${session}${'s'.repeat(24)}`;
  let anthropic: SimulatorHandle;
  let gateway: TestGateway;
  let seatKey: string;
  beforeAll(async () => {
    anthropic = await startAnthropicSimulator({ apiKey: [orgKey, seatToken('short'), seatToken('paused')] });
    gateway = await startTestGateway();
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/providers/anthropic/key',
      headers: adminHeaders,
      payload: { apiKey: orgKey, baseUrl: anthropic.url },
    });
    seatKey = (await mintClientKey(gateway.app, { user: 'seat@example.com', team: 'a' })).key;
  });
  afterAll(async () => {
    await gateway.close();
    await anthropic.close();
  });
  afterEach(async () => {
    anthropic.reset();
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/settings',
      headers: adminHeaders,
      payload: { seatOverflow: false },
    });
  });
  const seatCall = (session: string) =>
    gateway.app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: {
        'x-gw-api-key': seatKey,
        authorization: `Bearer ${seatToken(session)}`,
        'anthropic-version': '2023-06-01',
      },
      payload: messagesBody,
    });
  const seatRequests = (session: string) =>
    anthropic.requests.filter((request) => request.headers.authorization === `Bearer ${seatToken(session)}`);

  it('waits out a short seat 429 and retries the seat when overflow is off', async () => {
    anthropic.failNext(1, rateLimited({ retryAfterMs: 30 }));
    const response = await seatCall('short');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-gw-auth-mode']).toBe('passthrough');
    expect(seatRequests('short')).toHaveLength(2);
  });

  it('sends a throttled seat to the organization key at once when overflow is on, and a paused seat without trying it', async () => {
    expect(
      (
        await gateway.app.inject({
          method: 'PUT',
          url: '/admin/settings',
          headers: adminHeaders,
          payload: { seatOverflow: true },
        })
      ).statusCode,
    ).toBe(200);
    // A 30-second pause fits the default wait (60 s): without overflow the call would sit it out.
    anthropic.respondWhen(
      (request) => request.headers.authorization === `Bearer ${seatToken('paused')}`,
      rateLimited({ retryAfterSeconds: 30 }),
    );
    const first = await seatCall('paused');
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-gw-auth-mode']).toBe('overflow');
    const second = await seatCall('paused');
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-gw-auth-mode']).toBe('overflow');
    expect(seatRequests('paused')).toHaveLength(1);
  });
});

describe('enabling seat overflow', () => {
  it('needs an organization provider key stored first', async () => {
    const gateway = await startTestGateway();
    try {
      const refused = await gateway.app.inject({
        method: 'PUT',
        url: '/admin/settings',
        headers: adminHeaders,
        payload: { seatOverflow: true },
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toContain('organization provider key');
      expect(
        (await gateway.app.inject({ method: 'GET', url: '/admin/settings', headers: adminHeaders })).json(),
      ).toMatchObject({ seatOverflow: false });
      await gateway.app.inject({
        method: 'PUT',
        url: '/admin/v1/providers/anthropic/key',
        headers: adminHeaders,
        payload: { apiKey: 'sk-ant-org-0000', baseUrl: 'http://127.0.0.1:9' },
      });
      expect(
        (
          await gateway.app.inject({
            method: 'PUT',
            url: '/admin/settings',
            headers: adminHeaders,
            payload: { seatOverflow: true },
          })
        ).statusCode,
      ).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});
