import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiSimulator, type SimulatorHandle } from '@gw/testkit';
import { mintAdminKey } from './admin-support.js';
import { adminHeaders, bearer, startTestGateway, type TestGateway } from './helpers.js';
import { spendRows } from './inference-helpers.js';

describe('the admin playground', () => {
  let provider: SimulatorHandle;
  let gateway: TestGateway;
  const run = (payload: Record<string, unknown>, headers = adminHeaders, url = '/admin/v1/playground') =>
    gateway.app.inject({ method: 'POST', url, headers, payload });

  beforeAll(async () => {
    provider = await startOpenAiSimulator({ apiKey: 'sk-server' });
    gateway = await startTestGateway();
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/providers/openai/key',
      headers: adminHeaders,
      payload: { apiKey: 'sk-server', baseUrl: provider.baseURL },
    });
    await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/routing',
      headers: adminHeaders,
      payload: { defaultProvider: 'openai' },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await provider?.close();
  });

  it('sends one chat call through the whole chain, metered to its own short-lived key, and shows what a client gets', async () => {
    const response = await run({ model: 'gpt-4o-mini', prompt: 'Say hello', maxTokens: 16 });
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({
      status: 200,
      provider: 'openai',
      output: expect.any(String),
      usage: { promptTokens: expect.any(Number), totalTokens: expect.any(Number) },
      error: null,
      traceId: expect.any(String),
    });
    expect(provider.requests.at(-1)?.json).toMatchObject({
      model: 'gpt-4o-mini',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    expect(provider.requests.at(-1)?.headers.authorization).toBe('Bearer sk-server');

    // The key it ran under is a revoked playground service key, and the call has its spend row.
    const keys = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/keys?type=service', headers: adminHeaders })
    ).json().keys;
    expect(keys).toMatchObject([
      { source: 'playground', team: 'playground', status: 'revoked', createdBy: 'admin-token' },
    ]);
    const rows = await spendRows(gateway);
    expect(rows.filter((row) => row.team === 'playground' && row.key_type === 'service')).toHaveLength(1);
  });

  it('answers the error a client would get, and is gated by playground:run', async () => {
    const unknown = await run({ model: 'no-such-model-xyz', prompt: 'hi', provider: 'openai' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toMatchObject({ status: 400, output: null, error: { message: expect.any(String) } });
    expect((await run({ model: 'gpt-4o-mini', prompt: '' })).statusCode).toBe(400);
    expect((await run({ model: 'gpt-4o-mini', prompt: 'hi', maxTokens: 5_000 })).statusCode).toBe(400);

    const reader = await mintAdminKey(gateway.app, { label: 'reader', scopes: ['keys:read'] });
    expect((await run({ model: 'gpt-4o-mini', prompt: 'hi' }, bearer(reader.key))).statusCode).toBe(403);
    const runner = await mintAdminKey(gateway.app, { label: 'runner', scopes: ['playground:run'] });
    expect((await run({ model: 'gpt-4o-mini', prompt: 'hi' }, bearer(runner.key))).json().status).toBe(200);
    expect((await run({ model: 'gpt-4o-mini', prompt: 'hi' }, adminHeaders, '/admin/test-request')).json().status).toBe(
      200,
    );
  });
});
