import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders } from './helpers.js';
import {
  everyStoredRow,
  openAiServerKey,
  spendRows,
  startInferenceFixture,
  type InferenceFixture,
} from './inference-helpers.js';

describe('inference hardening', () => {
  let fixture: InferenceFixture;
  beforeAll(async () => {
    fixture = await startInferenceFixture({ env: { GW_LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => {
    await fixture.close();
  });

  const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
    fixture.gateway.app.inject({
      method: 'POST',
      url,
      headers: { ...fixture.auth, 'content-type': 'application/json', ...headers },
      payload,
    });

  it('never lets a canary from prompts or completions reach any stored table or the logs, nor the client key', async () => {
    const canary = `CANARY-${randomBytes(12).toString('hex')}`;
    fixture.openai.reset();
    fixture.anthropic.reset();
    const reply = { reply: { text: `the answer is ${canary}` } };
    fixture.openai.script(reply, reply, { status: 500, error: { message: `upstream echoed ${canary}` } });
    fixture.anthropic.script(reply, reply);
    const chat = JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: `secret ${canary}` }] });
    expect((await post('/v1/chat/completions', chat)).body).toContain(canary);
    expect((await post('/v1/chat/completions', JSON.stringify({ ...JSON.parse(chat), stream: true }))).body).toContain(
      canary,
    );
    await post('/v1/chat/completions', chat);
    const messages = JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 50,
      system: canary,
      messages: [{ role: 'user', content: canary }],
    });
    await post('/v1/messages', messages, { 'x-gw-provider': 'anthropic' });
    await post('/v1/chat/completions', chat.replace('gpt-4.1', 'claude-sonnet-4-5'), {
      'x-gw-provider': 'anthropic',
      'x-gw-metadata': JSON.stringify({ project: 'p' }),
    });
    await post('/v1/chat/completions', `{"model":"gpt-4.1","messages":[{"content":"${canary}"`);

    const rows = await spendRows(fixture.gateway);
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const stored = await everyStoredRow(fixture.gateway);
    expect(stored).toContain('gw_spend: [{');
    expect(stored).not.toContain(canary);
    expect(stored).not.toContain(fixture.clientKey);
    expect(fixture.gateway.logs.join('')).not.toContain(canary);
    expect(fixture.gateway.logs.join('')).not.toContain(fixture.clientKey);
  });

  it('logs the end of a relayed stream like any reply: debug when complete, error with its code when cut short', async () => {
    fixture.openai.reset();
    fixture.openai.script({}, { dropConnection: { afterEvents: 2 } });
    const body = JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'stream' }] });
    const before = fixture.gateway.logs.length;
    expect((await post('/v1/chat/completions', body)).statusCode).toBe(200);
    expect((await post('/v1/chat/completions', body)).statusCode).toBe(200);
    const lines = fixture.gateway.logs.slice(before).map(
      (line) =>
        JSON.parse(line) as {
          level: number;
          msg: string;
          stream?: boolean;
          errorCode?: string;
          res?: { statusCode: number };
        },
    );
    const ends = lines.filter((line) => line.stream === true);
    expect(ends.map((line) => [line.msg, line.level, line.errorCode])).toEqual([
      ['request completed', 20, undefined],
      ['request failed', 50, 'upstream_stream_interrupted'],
    ]);
    expect(ends[0]?.res?.statusCode).toBe(200);
  });

  it('answers fuzzed bodies on every inference route without a gateway 5xx', async () => {
    const routes = [
      '/v1/chat/completions',
      '/v1/messages',
      '/v1/completions',
      '/v1/embeddings',
      '/v1/messages/count_tokens',
    ];
    const jsonish = fc.oneof(
      fc.string(),
      fc.json(),
      fc
        .record({
          model: fc.oneof(fc.string(), fc.integer(), fc.constant('gpt-4.1')),
          messages: fc.anything(),
          stream: fc.anything(),
          max_tokens: fc.anything(),
          prompt: fc.anything(),
          input: fc.anything(),
        })
        .map((value) => JSON.stringify(value)),
      fc
        .record({
          model: fc.constant('gpt-4.1'),
          messages: fc.array(
            fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'tool', 'x'), content: fc.anything() }),
            { minLength: 1, maxLength: 3 },
          ),
          max_tokens: fc.integer({ min: 1, max: 10 }),
        })
        .map((value) => JSON.stringify(value)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        jsonish,
        fc.constantFrom('openai', 'anthropic'),
        async (route, body, provider) => {
          const response = await post(route, body, { 'x-gw-provider': provider });
          const gatewayFailure = response.statusCode >= 500 && response.headers['x-gw-error-source'] !== 'upstream';
          if (gatewayFailure)
            throw new Error(`${route} via ${provider} answered ${response.statusCode} ${response.body} for ${body}`);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('prices and records a model named like an Object.prototype member as the unknown model it is', async () => {
    fixture.openai.reset();
    // An openai-compatible provider serves whatever its operator named, so these ids reach pricing and the spend row.
    const put = await fixture.gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/providers/compat/key',
      headers: adminHeaders,
      payload: { type: 'openai-compatible', apiKey: openAiServerKey, baseUrl: fixture.openai.baseURL },
    });
    expect(put.statusCode).toBe(200);
    const before = (await spendRows(fixture.gateway)).length;
    for (const model of ['compat/valueOf', 'constructor', '__proto__', 'toString']) {
      const response = await post(
        '/v1/chat/completions',
        JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
        { 'x-gw-provider': 'compat' },
      );
      expect(response.statusCode, `${model}: ${response.body}`).toBe(200);
    }
    await post(
      '/v1/chat/completions',
      JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'after' }] }),
    );
    const rows = await spendRows(fixture.gateway);
    // One finite cost per call: none was NaN, so no row was refused and the call after them was still recorded.
    const costs = rows.slice(before).map((row) => Number(row.cost_usd));
    expect(costs).toHaveLength(5);
    expect(costs.every(Number.isFinite)).toBe(true);
  });

  it('refuses a model the first-party provider cannot serve before calling it', async () => {
    fixture.openai.reset();
    fixture.anthropic.reset();
    const cases: Array<[string, string, string]> = [
      ['/v1/chat/completions', 'openai', 'no-such-model'],
      ['/v1/chat/completions', 'openai', 'claude-sonnet-4-5'],
      ['/v1/messages', 'anthropic', 'gpt-4.1'],
      ['/v1/messages/count_tokens', 'anthropic', 'valueOf'],
    ];
    for (const [route, provider, model] of cases) {
      const response = await post(
        route,
        JSON.stringify({ model, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
        { 'x-gw-provider': provider },
      );
      expect(response.statusCode, `${model} via ${provider}`).toBe(400);
      expect(response.body).toMatch(/Unknown model/);
    }
    expect(fixture.openai.requests).toHaveLength(0);
    expect(fixture.anthropic.requests).toHaveLength(0);
    // New releases follow the vendor's naming and go through.
    expect(
      (
        await post(
          '/v1/chat/completions',
          JSON.stringify({ model: 'gpt-9-preview', messages: [{ role: 'user', content: 'hi' }] }),
        )
      ).statusCode,
    ).toBe(200);
  });

  it('refuses a model id no response header can carry before any provider is called', async () => {
    fixture.openai.reset();
    for (const model of ['gpt-4.1\n', '\u0000', '模型', 'x'.repeat(257)]) {
      const response = await post(
        '/v1/chat/completions',
        JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ type: 'invalid_request_error' });
      expect(response.headers['x-gw-trace-id']).toBeTruthy();
    }
    expect(fixture.openai.requests).toHaveLength(0);
  });

  it('answers JSON nested too deeply to rewrite with a 400 on every lane that rewrites it', async () => {
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const deepArray = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const cases: Array<[string, string, string]> = [
      [
        '/v1/chat/completions',
        'anthropic',
        `{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"t","parameters":{"type":"object","x":${deep}}}}]}`,
      ],
      [
        '/v1/chat/completions',
        'openai',
        `{"model":"openai/gpt-4.1","messages":[{"role":"user","content":"x"}],"metadata":{"x":${deep}}}`,
      ],
      [
        '/v1/messages/count_tokens',
        'openai',
        `{"model":"gpt-4.1","messages":[{"role":"user","content":${deepArray}}]}`,
      ],
      [
        '/v1/messages/count_tokens',
        'anthropic',
        `{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"x"}],"x":${deep}}`,
      ],
    ];
    for (const [route, provider, body] of cases) {
      const response = await post(route, body, { 'x-gw-provider': provider });
      expect(response.statusCode, `${route} via ${provider}: ${response.body}`).toBe(400);
    }
  });

  it('relays count_tokens provider errors like any call and refuses an answer that is not a count', async () => {
    fixture.anthropic.reset();
    const count = (status?: number) => {
      if (status) fixture.anthropic.script({ status });
      return post(
        '/v1/messages/count_tokens',
        JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'x' }] }),
        { 'x-gw-provider': 'anthropic' },
      );
    };
    const overloaded = await count(529);
    expect(overloaded.statusCode).toBe(529);
    expect(overloaded.headers).toMatchObject({
      'x-gw-error-source': 'upstream',
      'x-gw-upstream-provider': 'anthropic',
      'x-gw-upstream-status': '529',
    });
    expect(overloaded.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect(overloaded.json().error.message).toContain('not a gateway failure');
    expect((await count()).json().input_tokens).toBeGreaterThan(0);
  });

  it('names the request on a refusal too: a 401 carries the ids both SDKs read', async () => {
    const response = await fixture.gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['x-request-id']).toBe(response.headers['x-gw-trace-id']);
    expect(response.headers['request-id']).toBe(response.headers['x-gw-trace-id']);
  });
});
