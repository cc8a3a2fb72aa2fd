import OpenAI, { AzureOpenAI } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { embeddingVector, rateLimited, startOpenAiSimulator, type SimulatorHandle } from '../src/index.js';

const SERVER_KEY = 'sk-server-held-credential';
const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' } },
      required: ['city', 'days'],
    },
  },
};

describe('OpenAI simulator driven by the official openai SDK', () => {
  let simulator: SimulatorHandle;
  let client: OpenAI;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: SERVER_KEY });
    client = new OpenAI({ apiKey: SERVER_KEY, baseURL: simulator.baseURL, maxRetries: 0 });
  });
  afterAll(() => simulator.close());
  beforeEach(() => simulator.reset());

  it('answers a chat completion with a deterministic reply, usage details and a request id', async () => {
    simulator.script({ usage: { inputTokens: 120, cachedInputTokens: 100, reasoningTokens: 7, outputTokens: 30 } });
    const { data, response } = await client.chat.completions
      .create({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello there' },
        ],
      })
      .withResponse();

    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe('gpt-4o-mini');
    expect(data.choices[0]?.message.content).toBe(
      'Simulated reply from gpt-4o-mini to 2 message(s). You said: "Hello there"',
    );
    expect(data.choices[0]?.finish_reason).toBe('stop');
    expect(data.usage).toMatchObject({
      prompt_tokens: 120,
      completion_tokens: 30,
      total_tokens: 150,
      prompt_tokens_details: { cached_tokens: 100 },
      completion_tokens_details: { reasoning_tokens: 7 },
    });
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect((data as { _request_id?: string | null })._request_id).toBe(response.headers.get('x-request-id'));
  });

  it('records exactly what the client sent, including the Authorization header', async () => {
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'ping' }] });
    const [recorded] = simulator.requests;
    expect(recorded?.method).toBe('POST');
    expect(recorded?.path).toBe('/v1/chat/completions');
    expect(recorded?.headers.authorization).toBe(`Bearer ${SERVER_KEY}`);
    expect(recorded?.json).toEqual({ model: 'gpt-4o', messages: [{ role: 'user', content: 'ping' }] });
    expect(JSON.parse(recorded?.body ?? '')).toEqual(recorded?.json);
  });

  it('streams chat.completion.chunk events and a final usage chunk when include_usage is set', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Stream please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    const chunks = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe('Simulated reply from gpt-4o to 1 message(s). You said: "Stream please"');
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    const finish = chunks.at(-2);
    expect(finish?.choices[0]?.finish_reason).toBe('stop');
    expect(finish?.usage).toBeNull();
    const usageChunk = chunks.at(-1);
    expect(usageChunk?.choices).toEqual([]);
    expect(usageChunk?.usage?.completion_tokens).toBeGreaterThan(0);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
  });

  it('assembles the same completion through the SDK stream helper', async () => {
    const runner = client.chat.completions.stream({ model: 'gpt-4o', messages: [{ role: 'user', content: 'helper' }] });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Simulated reply from gpt-4o to 1 message(s). You said: "helper"');
    expect(final.choices[0]?.finish_reason).toBe('stop');
  });

  it('replies with a tool call when asked to and tools are offered', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Please call tool get_weather with {"city":"Paris","days":2}' }],
      tools: [weatherTool],
    });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const call = choice?.message.tool_calls?.[0];
    expect(call?.type).toBe('function');
    expect(call?.id).toMatch(/^call_/);
    if (call?.type !== 'function') throw new Error('expected a function call');
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris', days: 2 });
  });

  it('streams tool-call deltas that the SDK reassembles into the call, arguments filled from the schema', async () => {
    const runner = client.chat.completions.stream({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'What is the weather?' }],
      tools: [weatherTool],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    const final = await runner.finalChatCompletion();
    const call = final.choices[0]?.message.tool_calls?.[0];
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    if (call?.type !== 'function') throw new Error('expected a function call');
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'sample', days: 1 });
  });

  it('returns embeddings as floats and, by SDK default, as base64 decoded by the SDK into the same floats', async () => {
    const floats = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['alpha', 'beta'],
      encoding_format: 'float',
    });
    const decoded = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['alpha', 'beta'] });

    expect(simulator.requests[1]?.json).toMatchObject({ encoding_format: 'base64' });
    expect(floats.data).toHaveLength(2);
    expect(floats.data[0]?.embedding).toHaveLength(1536);
    expect(decoded.data[0]?.embedding).toEqual(floats.data[0]?.embedding);
    expect(decoded.data[1]?.embedding).toEqual(floats.data[1]?.embedding);
    expect(decoded.data[0]?.embedding).toEqual(Array.from(embeddingVector('alpha', 1536)));
    expect(decoded.data[0]?.embedding).not.toEqual(decoded.data[1]?.embedding);
    expect(floats.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('honours the dimensions parameter', async () => {
    const result = await client.embeddings.create({ model: 'text-embedding-3-large', input: 'x', dimensions: 256 });
    expect(result.data[0]?.embedding).toHaveLength(256);
  });

  it('serves legacy completions and the model list', async () => {
    const completion = await client.completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'Say hi',
      max_tokens: 200,
    });
    expect(completion.object).toBe('text_completion');
    expect(completion.choices[0]?.text).toContain('You said: "Say hi"');
    expect(completion.choices[0]?.finish_reason).toBe('stop');

    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toContain('gpt-4o');
  });

  it('rejects a wrong key with the SDK AuthenticationError', async () => {
    const intruder = new OpenAI({ apiKey: 'sk-client-key-not-allowed', baseURL: simulator.baseURL, maxRetries: 0 });
    const failure = intruder.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
    await expect(failure).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(failure).rejects.toMatchObject({
      status: 401,
      code: 'invalid_api_key',
      type: 'invalid_request_error',
    });
  });

  it('surfaces a scripted error envelope through the SDK error fields', async () => {
    simulator.script({
      status: 400,
      error: { message: 'context too long', param: 'messages', code: 'context_length_exceeded' },
    });
    const failure = client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
    await expect(failure).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(failure).rejects.toMatchObject({
      code: 'context_length_exceeded',
      param: 'messages',
      message: expect.stringContaining('context too long'),
    });
  });

  it('lets the SDK retry a 429 after the retry-after-ms delay rather than Retry-After seconds', async () => {
    simulator.script(rateLimited({ retryAfterMs: 50, retryAfterSeconds: 30 }));
    const retrying = new OpenAI({ apiKey: SERVER_KEY, baseURL: simulator.baseURL, maxRetries: 2 });
    const started = performance.now();
    const completion = await retrying.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'retry me' }],
    });
    const elapsed = performance.now() - started;

    expect(completion.choices[0]?.message.content).toContain('retry me');
    expect(simulator.requests).toHaveLength(2);
    expect(simulator.requests[1]?.headers['x-stainless-retry-count']).toBe('1');
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('fails the next N requests persistently, then recovers', async () => {
    simulator.failNext(2, { status: 503 });
    const send = () => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
    await expect(send()).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    await expect(send()).rejects.toMatchObject({ status: 503 });
    await expect(send()).resolves.toMatchObject({ object: 'chat.completion' });
  });

  it('answers matching requests with a rule until it is removed', async () => {
    const remove = simulator.respondWhen((request) => (request.json as { model?: string }).model === 'gpt-broken', {
      status: 500,
    });
    await expect(
      client.chat.completions.create({ model: 'gpt-broken', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 500 });
    await expect(
      client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
    ).resolves.toBeDefined();
    remove();
    await expect(
      client.chat.completions.create({ model: 'gpt-broken', messages: [{ role: 'user', content: 'x' }] }),
    ).resolves.toBeDefined();
  });

  it('raises in the SDK when the connection drops in the middle of a stream', async () => {
    simulator.script({ dropConnection: { afterEvents: 3 } });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'one two three four five' }],
      stream: true,
    });
    const received: string[] = [];
    const consume = async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
    };
    await expect(consume()).rejects.toThrow();
    expect(received).toHaveLength(3);
  });

  it('raises the error carried by a mid-stream error event', async () => {
    simulator.script({ midStreamError: { afterEvents: 2, message: 'upstream broke', type: 'server_error' } });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const consume = async () => {
      for await (const _chunk of stream) {
        // drain
      }
    };
    await expect(consume()).rejects.toThrow(/upstream broke/);
  });

  it('sends a custom JSON body verbatim and waits the scripted latency before the first byte', async () => {
    const custom = {
      id: 'chatcmpl-custom',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [],
      usage: null,
    };
    simulator.script({ body: custom, latencyMs: 60 });
    const started = performance.now();
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(completion).toMatchObject(custom);
  });

  it('serves the Azure deployment path with the api-key header and api-version query', async () => {
    const azure = new AzureOpenAI({
      endpoint: simulator.url,
      apiKey: SERVER_KEY,
      apiVersion: '2024-10-21',
      deployment: 'prod-gpt4o',
      maxRetries: 0,
    });
    const completion = await azure.chat.completions.create({
      model: '',
      messages: [{ role: 'user', content: 'azure?' }],
    });
    expect(completion.choices[0]?.message.content).toContain('azure?');
    const [recorded] = simulator.requests;
    expect(recorded?.path).toBe('/openai/deployments/prod-gpt4o/chat/completions');
    expect(recorded?.query['api-version']).toBe('2024-10-21');
    expect(recorded?.headers['api-key']).toBe(SERVER_KEY);
  });
});
