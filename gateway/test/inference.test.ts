import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  anthropicServerKey,
  openAiServerKey,
  spendRowOf,
  spendRows,
  sseFrames,
  startInferenceFixture,
  type InferenceFixture,
} from './inference-helpers.js';

describe('inference core', () => {
  let fixture: InferenceFixture;
  beforeAll(async () => {
    fixture = await startInferenceFixture();
  });
  afterAll(async () => {
    await fixture.close();
  });
  beforeEach(() => {
    fixture.openai.reset();
    fixture.anthropic.reset();
  });

  const post = (url: string, payload: string | object, headers: Record<string, string> = {}) =>
    fixture.gateway.app.inject({
      method: 'POST',
      url,
      headers: { ...fixture.auth, 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('forwards same-family chat byte for byte with the server-held credential', async () => {
    const raw =
      '{"model":"gpt-4.1","messages":[{"role":"user","content":"hi"}],"temperature":1.0,"seed":12345678901234567890,"x_unknown":{"b":1,"a":2}}';
    const response = await post('/v1/chat/completions', raw);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-gw-provider']).toBe('openai');
    expect(response.headers['x-request-id']).toBe(response.headers['x-gw-trace-id']);
    expect(response.json().choices[0].message.content).toContain('Simulated reply from gpt-4.1');
    const upstream = fixture.openai.requests[0];
    expect(upstream.body).toBe(raw);
    expect(upstream.headers.authorization).toBe(`Bearer ${openAiServerKey}`);
    expect(JSON.stringify(upstream.headers)).not.toContain(fixture.clientKey);
  });

  it('keeps Messages features (cache_control, thinking, unknown fields) on the native Anthropic lane and clamps max_tokens', async () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 500_000,
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'hello' }],
      thinking: { type: 'enabled', budget_tokens: 2048 },
      future_field: { keep: true },
    };
    const response = await post('/v1/messages', body, {
      'x-gw-provider': 'anthropic',
      'anthropic-version': '2026-10-21',
      'anthropic-beta': 'some-beta',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().type).toBe('message');
    const upstream = fixture.anthropic.requests[0];
    expect(upstream.json).toEqual({ ...body, max_tokens: 64_000 });
    expect(upstream.headers['x-api-key']).toBe(anthropicServerKey);
    expect(upstream.headers['anthropic-version']).toBe('2026-10-21');
    expect(upstream.headers['anthropic-beta']).toBe('some-beta');
    expect(upstream.headers.authorization).toBeUndefined();
  });

  it('clamps a Messages request above the model ceiling when an OpenAI provider serves it', async () => {
    const response = await post(
      '/v1/messages',
      { model: 'gpt-4.1', max_tokens: 200_000, messages: [{ role: 'user', content: 'hello' }] },
      { 'x-gw-provider': 'openai' },
    );
    expect(response.statusCode).toBe(200);
    const sent = fixture.openai.requests[0]?.json as Record<string, unknown>;
    expect(sent.max_completion_tokens ?? sent.max_tokens).toBe(32_768);
  });

  it('translates chat completions to an Anthropic provider and back, including usage', async () => {
    const response = await post(
      '/v1/chat/completions',
      {
        model: 'claude-haiku-4-5',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hi' },
        ],
      },
      { 'x-gw-provider': 'anthropic' },
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0].message.role).toBe('assistant');
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
    expect(fixture.anthropic.requests[0].json).toMatchObject({
      model: 'claude-haiku-4-5',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('streams same-family chat, asks for usage, and keeps the usage chunk from a client that did not ask', async () => {
    const response = await post('/v1/chat/completions', {
      model: 'gpt-4.1',
      stream: true,
      messages: [{ role: 'user', content: 'stream please' }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/event-stream');
    const frames = sseFrames(response.body);
    expect(frames.at(-1)?.data).toBe('[DONE]');
    expect(frames.some((frame) => frame.data.includes('"usage"') && frame.data.includes('"choices":[]'))).toBe(false);
    // The usage request is spliced in; every byte the client sent goes upstream as sent.
    expect(fixture.openai.requests[0].body).toBe(
      `{"stream_options":{"include_usage":true},${JSON.stringify({ model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'stream please' }] }).slice(1)}`,
    );
    const row = await spendRowOf(fixture.gateway, response);
    expect(row).toMatchObject({
      endpoint: '/v1/chat/completions',
      status: 200,
      outcome: 'success',
      provider: 'openai',
      model: 'gpt-4.1',
      stream: true,
      user_id: 'ada@example.com',
      team: 'compilers',
    });
    expect(Number(row.prompt_tokens)).toBeGreaterThan(0);
  });

  it('keeps a streamed body as sent when it asks for usage itself, and merges the usage request into other stream options', async () => {
    const asked =
      ' {"model":"gpt-4.1","stream":true,"temperature":1.0,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"caf\\u00e9"}]}';
    const response = await post('/v1/chat/completions', asked);
    expect(response.statusCode).toBe(200);
    expect(fixture.openai.requests[0].body).toBe(asked);
    expect(sseFrames(response.body).some((frame) => frame.data.includes('"choices":[]'))).toBe(true);

    const declined = await post('/v1/chat/completions', {
      model: 'gpt-4.1',
      stream: true,
      stream_options: { include_usage: false },
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(declined.statusCode).toBe(200);
    expect(fixture.openai.requests[1].json).toMatchObject({ stream_options: { include_usage: true } });
    expect(sseFrames(declined.body).some((frame) => frame.data.includes('"choices":[]'))).toBe(false);
  });

  it('streams a Messages request translated from an OpenAI provider as the full event sequence', async () => {
    const response = await post('/v1/messages', {
      model: 'gpt-4.1',
      max_tokens: 100,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(response.statusCode).toBe(200);
    const events = sseFrames(response.body).map((frame) => frame.event);
    expect(events[0]).toBe('message_start');
    expect(events).toContain('content_block_delta');
    expect(events.at(-1)).toBe('message_stop');
  });

  it('relays a provider 503 and 529 with the upstream headers, status, type and an amended message', async () => {
    fixture.openai.script({ status: 503 });
    const relayed = await post('/v1/chat/completions', {
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(relayed.statusCode).toBe(503);
    expect(relayed.headers).toMatchObject({
      'x-gw-error-source': 'upstream',
      'x-gw-upstream-provider': 'openai',
      'x-gw-upstream-status': '503',
      'x-gw-provider': 'openai',
    });
    expect(relayed.json().error.message).toContain('not a gateway failure');

    fixture.anthropic.script({ status: 529 });
    const overloaded = await post(
      '/v1/messages',
      { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] },
      { 'x-gw-provider': 'anthropic' },
    );
    expect(overloaded.statusCode).toBe(529);
    expect(overloaded.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect(overloaded.json().error.message).toContain('provider "anthropic"');
    expect(overloaded.headers['x-gw-upstream-status']).toBe('529');
  });

  it('answers malformed and invalid bodies with 400, never 500', async () => {
    const malformed = await post('/v1/chat/completions', '{"model": "gpt-4.1", "messages": [');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
    const invalid = await post('/v1/messages', { model: 'claude-sonnet-4-5', messages: [] });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const completions = await post('/v1/completions', { model: 'gpt-4.1', prompt: 'x', temperature: 3 });
    expect(completions.statusCode).toBe(400);
    const unknown = await post(
      '/v1/chat/completions',
      { model: 'gpt-4.1', messages: [{ role: 'user', content: 'x' }] },
      { 'x-gw-provider': 'nope' },
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('unknown_provider');
    const credential = await post(
      '/v1/chat/completions',
      { model: 'gpt-4.1', messages: [{ role: 'user', content: 'x' }] },
      { 'x-gw-config': JSON.stringify({ provider: 'openai', api_key: 'sk-x' }) },
    );
    expect(credential.statusCode).toBe(400);
    // This gateway has no optimizer, so no response cache; a malformed cache block is refused all the same.
    const cacheBlock = await post(
      '/v1/chat/completions',
      { model: 'gpt-4.1', messages: [{ role: 'user', content: 'x' }] },
      { 'x-gw-config': JSON.stringify({ provider: 'openai', cache: { mode: 'always' } }) },
    );
    expect(cacheBlock.statusCode).toBe(400);

    // One spend row per call, whichever stage refused it: parse, validation and routing alike.
    for (const [response, code] of [
      [malformed, 'invalid_json'],
      [invalid, 'invalid_request'],
      [completions, 'invalid_request'],
      [unknown, 'unknown_provider'],
      [credential, 'config_carries_credential'],
      [cacheBlock, 'invalid_config'],
    ] as const) {
      expect(await spendRowOf(fixture.gateway, response)).toMatchObject({
        status: 400,
        error_code: code,
        user_id: 'ada@example.com',
        total_tokens: 0,
      });
    }
    // A JSON route sent a form or plain text says what it reads (`curl -d` without a content type sends a form).
    for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
      const form = await post(
        '/v1/chat/completions',
        '{"model":"gpt-4.1","messages":[{"role":"user","content":"x"}]}',
        { 'content-type': type },
      );
      expect(form.statusCode).toBe(415);
      expect(form.json().error).toMatchObject({
        code: 'unsupported_media_type',
        message: expect.stringContaining('application/json'),
      });
    }
    // A route that calls no provider records nothing, even when it refuses the request.
    const before = (await spendRows(fixture.gateway)).length;
    expect((await post('/v1/messages/count_tokens', { model: 'claude-sonnet-4-5' })).statusCode).toBe(400);
    expect((await spendRows(fixture.gateway)).length).toBe(before);
  });

  it('passes base64 embeddings through end to end', async () => {
    const response = await post('/v1/embeddings', {
      model: 'text-embedding-3-small',
      input: ['a', 'b'],
      encoding_format: 'base64',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.data).toHaveLength(2);
    expect(typeof body.data[0].embedding).toBe('string');
  });

  it('lists models, counts tokens without metering, and proxies unknown /v1 paths (500, not 404)', async () => {
    const models = await fixture.gateway.app.inject({ method: 'GET', url: '/v1/models', headers: fixture.auth });
    expect(models.json().object).toBe('list');
    expect(models.json().data.map((model: { id: string }) => model.id)).toEqual(
      expect.arrayContaining(['gpt-4.1', 'anthropic/claude-sonnet-4-5']),
    );

    const before = (await spendRows(fixture.gateway)).length;
    const counted = await post(
      '/v1/messages/count_tokens',
      { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hello world' }] },
      { 'x-gw-provider': 'anthropic' },
    );
    expect(counted.statusCode).toBe(200);
    expect(counted.json().input_tokens).toBeGreaterThan(0);
    const estimated = await post('/v1/messages/count_tokens', {
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'hello world' }],
    });
    expect(estimated.json().input_tokens).toBeGreaterThan(0);
    expect((await spendRows(fixture.gateway)).length).toBe(before);

    const unknown = await post('/v1/not-a-route', { model: 'gpt-4.1' });
    expect(unknown.statusCode).toBe(500);
    expect(unknown.headers['x-gw-error-source']).toBe('upstream');
  });

  it('turns a connection dropped mid-stream into an SSE error event and a failed spend row', async () => {
    fixture.openai.script({ dropConnection: { afterEvents: 2 } });
    const response = await post('/v1/chat/completions', {
      model: 'gpt-4.1',
      stream: true,
      messages: [{ role: 'user', content: 'a longer answer please' }],
    });
    const frames = sseFrames(response.body);
    expect(frames.at(-1)?.data).toContain('"error"');
    const row = await spendRowOf(fixture.gateway, response);
    expect(row).toMatchObject({ outcome: 'error', error_code: 'upstream_stream_interrupted' });
  });
});
