import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { overloaded, rateLimited, startAnthropicSimulator, type SimulatorHandle } from '../src/index.js';

const SERVER_KEY = 'sk-ant-server-held';
const MODEL = 'claude-sonnet-4-20250514';
const weatherTool = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
};

/** Event names of a raw SSE body, in order. */
function eventNames(body: string): string[] {
  return [...body.matchAll(/^event: (\S+)$/gm)].map((match) => match[1] ?? '');
}

describe('Anthropic simulator driven by the official @anthropic-ai/sdk', () => {
  let simulator: SimulatorHandle;
  let client: Anthropic;

  beforeAll(async () => {
    simulator = await startAnthropicSimulator({ apiKey: SERVER_KEY });
    client = new Anthropic({ apiKey: SERVER_KEY, baseURL: simulator.baseURL, maxRetries: 0 });
  });
  afterAll(() => simulator.close());
  beforeEach(() => simulator.reset());

  it('answers a Messages request with a text block, stop reason, usage and request id', async () => {
    simulator.script({
      usage: { inputTokens: 40, cacheCreationInputTokens: 12, cachedInputTokens: 300, outputTokens: 9 },
    });
    const { data, response } = await client.messages
      .create({
        model: MODEL,
        max_tokens: 256,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hello Claude' }],
      })
      .withResponse();

    expect(data.type).toBe('message');
    expect(data.role).toBe('assistant');
    expect(data.model).toBe(MODEL);
    expect(data.id).toMatch(/^msg_01/);
    expect(data.content).toEqual([
      { type: 'text', text: `Simulated reply from ${MODEL} to 1 message(s). You said: "Hello Claude"` },
    ]);
    expect(data.stop_reason).toBe('end_turn');
    expect(data.usage).toMatchObject({
      input_tokens: 40,
      output_tokens: 9,
      cache_creation_input_tokens: 12,
      cache_read_input_tokens: 300,
    });
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect((data as { _request_id?: string | null })._request_id).toBe(response.headers.get('request-id'));
    // SDK 1.x sends the API key as a bearer token; the raw-fetch tests below use `x-api-key`.
    expect(simulator.requests[0]?.headers.authorization).toBe(`Bearer ${SERVER_KEY}`);
    expect(simulator.requests[0]?.headers['anthropic-version']).toBeTruthy();
  });

  it('streams the exact event sequence and the SDK assembles the same message', async () => {
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Stream to me' }],
    });
    const texts: string[] = [];
    stream.on('text', (text) => texts.push(text));
    const final = await stream.finalMessage();

    expect(final.content).toEqual([
      { type: 'text', text: `Simulated reply from ${MODEL} to 1 message(s). You said: "Stream to me"` },
    ]);
    expect(texts.join('')).toBe(`Simulated reply from ${MODEL} to 1 message(s). You said: "Stream to me"`);
    expect(texts.length).toBeGreaterThan(3);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBeGreaterThan(1);
    expect(final.usage.input_tokens).toBeGreaterThan(0);
  });

  it('frames every event as `event: <type>` plus `data: <json>` in the documented order', async () => {
    const response = await fetch(`${simulator.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': SERVER_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: MODEL,
        max_tokens: 64,
        stream: true,
        messages: [{ role: 'user', content: 'a b' }],
      }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = await response.text();
    const names = eventNames(body);
    expect(names.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(names.slice(-4)).toEqual(['content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    for (const frame of body.trim().split('\n\n')) {
      const [eventLine, dataLine] = frame.split('\n');
      const type = eventLine?.slice('event: '.length);
      expect(JSON.parse(dataLine?.slice('data: '.length) ?? '')).toMatchObject({ type });
    }
  });

  it('replies with tool_use (JSON) when asked to call a tool', async () => {
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 256,
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'call tool get_weather with {"city":"Oslo"}' }],
    });
    expect(message.stop_reason).toBe('tool_use');
    const block = message.content[0];
    if (block?.type !== 'tool_use') throw new Error('expected tool_use');
    expect(block.name).toBe('get_weather');
    expect(block.id).toMatch(/^toolu_01/);
    expect(block.input).toEqual({ city: 'Oslo' });
  });

  it('streams thinking (with signature) and tool input JSON that the SDK reassembles', async () => {
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [weatherTool],
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'Weather in Rome?' }],
    });
    const final = await stream.finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    const [thinking, toolUse] = final.content;
    if (thinking?.type !== 'thinking' || toolUse?.type !== 'tool_use') throw new Error('unexpected blocks');
    expect(thinking.thinking.length).toBeGreaterThan(0);
    expect(thinking.signature.length).toBeGreaterThan(0);
    expect(toolUse.input).toEqual({ city: 'sample' });
    expect(final.stop_reason).toBe('tool_use');
  });

  it('answers a tool result with text instead of calling the tool again', async () => {
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 256,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'call tool get_weather' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_01abc', name: 'get_weather', input: { city: 'x' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01abc', content: 'sunny' }] },
      ],
    });
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content[0]?.type).toBe('text');
  });

  it('counts tokens and lists models', async () => {
    const counted = await client.messages.countTokens({
      model: MODEL,
      messages: [{ role: 'user', content: 'x'.repeat(400) }],
    });
    expect(counted.input_tokens).toBe(100);
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toContain(MODEL);
  });

  it('requires a valid key and the anthropic-version header like the real API', async () => {
    const intruder = new Anthropic({ apiKey: 'sk-ant-client', baseURL: simulator.baseURL, maxRetries: 0 });
    const failure = intruder.messages.create({
      model: MODEL,
      max_tokens: 8,
      messages: [{ role: 'user', content: 'x' }],
    });
    await expect(failure).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    await expect(failure).rejects.toMatchObject({
      status: 401,
      error: { type: 'error', error: { type: 'authentication_error' } },
    });

    const bearer = new Anthropic({ authToken: SERVER_KEY, apiKey: null, baseURL: simulator.baseURL, maxRetries: 0 });
    await expect(
      bearer.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }),
    ).resolves.toBeDefined();

    const unversioned = await fetch(`${simulator.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': SERVER_KEY },
      body: JSON.stringify({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(unversioned.status).toBe(400);
    expect(await unversioned.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' },
    });
  });

  it('rejects a request without max_tokens as invalid_request_error', async () => {
    const failure = client.messages.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'x' }],
    } as unknown as Anthropic.MessageCreateParamsNonStreaming);
    await expect(failure).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(failure).rejects.toMatchObject({
      error: { error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } },
    });
  });

  it('surfaces a 529 as the SDK OverloadedError', async () => {
    simulator.script(overloaded());
    const failure = client.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'x' }] });
    await expect(failure).rejects.toBeInstanceOf(Anthropic.OverloadedError);
    await expect(failure).rejects.toMatchObject({
      status: 529,
      error: { type: 'error', error: { type: 'overloaded_error' } },
    });
  });

  it('lets the SDK retry a 429 honouring retry-after-ms', async () => {
    simulator.script(rateLimited({ retryAfterMs: 50, retryAfterSeconds: 30 }));
    const retrying = new Anthropic({ apiKey: SERVER_KEY, baseURL: simulator.baseURL, maxRetries: 2 });
    const started = performance.now();
    const message = await retrying.messages.create({
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'again' }],
    });
    const elapsed = performance.now() - started;
    expect(message.content[0]?.type).toBe('text');
    expect(simulator.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('raises the SDK error carried by a mid-stream error event', async () => {
    simulator.script({ midStreamError: { afterEvents: 4 } });
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'one two three' }],
    });
    const failure = stream.finalMessage();
    await expect(failure).rejects.toBeInstanceOf(Anthropic.APIError);
    await expect(failure).rejects.toMatchObject({
      error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
  });

  it('raises in the SDK when the connection drops before any byte', async () => {
    simulator.script({ dropConnection: true });
    const failure = client.messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'x' }] });
    await expect(failure).rejects.toBeInstanceOf(Anthropic.APIConnectionError);
  });

  it('spaces stream events by the configured per-event delay', async () => {
    simulator.script({ eventDelayMs: 15 });
    const started = performance.now();
    const final = await client.messages
      .stream({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'slow' }] })
      .finalMessage();
    expect(final.content[0]?.type).toBe('text');
    // message_start, block start, ping, ≥ 8 text deltas, block stop, message_delta, message_stop: ≥ 13 events.
    expect(performance.now() - started).toBeGreaterThanOrEqual(12 * 15 - 5);
  });

  it('applies replyWith overrides to every request', async () => {
    const custom = await startAnthropicSimulator({ replyWith: { text: 'fixed answer', usage: { outputTokens: 2 } } });
    try {
      const scripted = new Anthropic({ apiKey: 'any-key', baseURL: custom.baseURL, maxRetries: 0 });
      const message = await scripted.messages.create({
        model: MODEL,
        max_tokens: 8,
        messages: [{ role: 'user', content: 'x' }],
      });
      expect(message.content).toEqual([{ type: 'text', text: 'fixed answer' }]);
      expect(message.usage.output_tokens).toBe(2);
    } finally {
      await custom.close();
    }
  });
});
