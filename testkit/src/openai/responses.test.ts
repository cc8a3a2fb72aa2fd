import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../core/simulator.js';
import { startOpenAiSimulator } from './openai-simulator.js';
import { responsesRequestError, summarizeResponsesRequest } from './responses-request.js';

const KEY = 'sk-responses-test';
const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer' } },
    required: ['city', 'days'],
  },
  strict: true,
};
const TEXT_EVENTS = [
  'response.output_item.added',
  'response.content_part.added',
  'response.output_text.delta',
  'response.output_text.done',
  'response.content_part.done',
  'response.output_item.done',
];

/** Consecutive duplicates collapsed, so "several deltas" compare as one step. */
const steps = (types: readonly string[]): string[] => types.filter((type, index) => type !== types[index - 1]);

describe('Responses API driven by the official openai SDK', () => {
  let simulator: SimulatorHandle;
  let client: OpenAI;

  beforeAll(async () => {
    simulator = await startOpenAiSimulator({ apiKey: KEY });
    client = new OpenAI({ apiKey: KEY, baseURL: simulator.baseURL, maxRetries: 0 });
  });
  afterAll(() => simulator.close());
  beforeEach(() => simulator.reset());

  it('answers a JSON request with a message output item and Responses usage', async () => {
    simulator.script({ usage: { inputTokens: 120, cachedInputTokens: 100, reasoningTokens: 7, outputTokens: 30 } });
    const { data, response } = await client.responses
      .create({ model: 'gpt-4o', instructions: 'Be brief.', input: 'Hello there' })
      .withResponse();

    const text = 'Simulated reply from gpt-4o to 1 message(s). You said: "Hello there"';
    expect(data).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-4o',
      instructions: 'Be brief.',
      error: null,
      incomplete_details: null,
    });
    expect(data.id).toMatch(/^resp_/);
    expect(data.created_at).toBeGreaterThan(1_700_000_000);
    expect(data.output).toEqual([
      {
        id: expect.stringMatching(/^msg_/),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
      },
    ]);
    expect(data.output_text).toBe(text);
    expect(data.usage).toEqual({
      input_tokens: 120,
      input_tokens_details: { cached_tokens: 100, cache_write_tokens: 0 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 7 },
      total_tokens: 150,
    });
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(simulator.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/responses',
      json: { model: 'gpt-4o', instructions: 'Be brief.', input: 'Hello there' },
    });
  });

  it('streams the lifecycle and text events in order, with sequence numbers and usage on response.completed', async () => {
    const stream = await client.responses.create({
      model: 'gpt-4o-mini',
      input: [{ role: 'user', content: 'Stream please' }],
      stream: true,
    });
    const events = [];
    for await (const event of stream) events.push(event);

    expect(steps(events.map((event) => event.type))).toEqual([
      'response.created',
      'response.in_progress',
      ...TEXT_EVENTS,
      'response.completed',
    ]);
    expect(events.filter((event) => event.type === 'response.output_text.delta').length).toBeGreaterThan(3);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    let text = '';
    for (const event of events) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('Simulated reply from gpt-4o-mini to 1 message(s). You said: "Stream please"');
    const created = events[0];
    expect(created?.type === 'response.created' && created.response).toMatchObject({
      status: 'in_progress',
      output: [],
      usage: null,
    });
    const completed = events.at(-1);
    if (completed?.type !== 'response.completed') throw new Error('expected response.completed last');
    expect(completed.response.id).toBe(created?.type === 'response.created' ? created.response.id : undefined);
    expect(completed.response.output[0]).toMatchObject({
      type: 'message',
      status: 'completed',
      content: [{ type: 'output_text', text }],
    });
    expect(completed.response.usage).toMatchObject({
      input_tokens: Math.ceil('Stream please'.length / 4),
      output_tokens: Math.ceil(text.length / 4),
    });
  });

  it('frames named SSE events whose payload repeats the type, with no [DONE] line', async () => {
    const response = await fetch(`${simulator.baseURL}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', input: 'hi', stream: true }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = (await response.text()).split('\n\n').filter(Boolean);
    for (const frame of frames) {
      const [eventLine, dataLine, ...rest] = frame.split('\n');
      expect(rest).toEqual([]);
      expect(JSON.parse(dataLine?.slice('data: '.length) ?? '').type).toBe(eventLine?.slice('event: '.length));
    }
    expect(frames.at(-1)).toMatch(/^event: response\.completed\n/);
    expect(frames.some((frame) => frame.includes('[DONE]'))).toBe(false);
  });

  it('accumulates a stream with responses.stream() into finalResponse()', async () => {
    const stream = client.responses.stream({ model: 'gpt-4o', input: 'Accumulate me' });
    const snapshots: string[] = [];
    stream.on('response.output_text.delta', (event) => snapshots.push(event.snapshot));
    const final = await stream.finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output_text).toBe('Simulated reply from gpt-4o to 1 message(s). You said: "Accumulate me"');
    expect(snapshots.at(-1)).toBe(final.output_text);
    expect(final.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('replies with a function_call item when asked to call an offered tool', async () => {
    const data = await client.responses.create({
      model: 'gpt-4o',
      input: 'call tool get_weather',
      tools: [weatherTool],
    });
    expect(data.output).toEqual([
      {
        id: expect.stringMatching(/^fc_/),
        type: 'function_call',
        status: 'completed',
        call_id: expect.stringMatching(/^call_/),
        name: 'get_weather',
        arguments: '{"city":"sample","days":1}',
      },
    ]);
    expect(data.output_text).toBe('');
    expect(data.tools[0]).toMatchObject({ type: 'function', name: 'get_weather', strict: true });
  });

  it('streams function-call arguments as deltas closed by function_call_arguments.done', async () => {
    const stream = client.responses.stream({
      model: 'gpt-4o',
      input: 'call tool get_weather with {"city": "Paris", "days": 3}',
      tools: [weatherTool],
    });
    const types: string[] = [];
    let streamed = '';
    stream.on('event', (event) => types.push(event.type));
    stream.on('response.function_call_arguments.delta', (event) => (streamed += event.delta));
    const final = await stream.finalResponse();
    expect(steps(types)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(streamed).toBe('{"city": "Paris", "days": 3}');
    expect(final.output[0]).toMatchObject({ type: 'function_call', name: 'get_weather', arguments: streamed });
  });

  it('answers a function_call_output with text, so agent loops end', async () => {
    const data = await client.responses.create({
      model: 'gpt-4o',
      tools: [weatherTool],
      input: [
        { role: 'user', content: 'call tool get_weather' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
    });
    expect(data.output_text).toBe('Simulated reply from gpt-4o to 3 message(s). You said: ""');
  });

  it('adds a reasoning item and reasoning tokens for reasoning models', async () => {
    const data = await client.responses.create({ model: 'o3-mini', input: 'Think first' });
    expect(data.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(data.output[0]).toMatchObject({ id: expect.stringMatching(/^rs_/), summary: [] });
    expect(data.usage?.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });

  it('ends a reply cut at max_output_tokens as incomplete, in JSON and in the stream', async () => {
    const input = 'A question long enough that the default reply runs past sixteen tokens';
    const data = await client.responses.create({ model: 'gpt-4o', input, max_output_tokens: 16 });
    expect(data).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      max_output_tokens: 16,
    });
    expect(data.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
    expect(data.output_text).toHaveLength(64);

    const stream = await client.responses.create({ model: 'gpt-4o', input, max_output_tokens: 16, stream: true });
    const types = [];
    for await (const event of stream) types.push(event.type);
    expect(types.at(-1)).toBe('response.incomplete');
  });

  it('rejects a request without input or model with 400 in the OpenAI envelope', async () => {
    const noInput = await client.responses.create({ model: 'gpt-4o' }).catch((error: unknown) => error);
    expect(noInput).toBeInstanceOf(OpenAI.BadRequestError);
    expect(noInput).toMatchObject({
      status: 400,
      param: 'input',
      code: 'missing_required_parameter',
      type: 'invalid_request_error',
    });
    expect((noInput as Error).message).toContain("Missing required parameter: 'input'.");

    const noModel = await client.responses.create({ input: 'hi' }).catch((error: unknown) => error);
    expect(noModel).toMatchObject({ status: 400, param: 'model', code: 'missing_required_parameter' });

    const chatStyleTool = { type: 'function', function: { name: 'get_weather' } } as unknown as typeof weatherTool;
    const badTool = await client.responses
      .create({ model: 'gpt-4o', input: 'hi', tools: [chatStyleTool] })
      .catch((error: unknown) => error);
    expect(badTool).toMatchObject({ status: 400, param: 'tools[0].name' });
  });

  it('applies scripted failures: an error status and a scripted reply', async () => {
    simulator.script({ status: 500 }, { reply: { text: 'Scripted.' } });
    const failure = await client.responses.create({ model: 'gpt-4o', input: 'hi' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.InternalServerError);
    expect(failure).toMatchObject({ status: 500, type: 'server_error' });
    expect((await client.responses.create({ model: 'gpt-4o', input: 'hi' })).output_text).toBe('Scripted.');
  });

  it('fails a stream part-way with an error event the SDK raises as an APIError', async () => {
    simulator.script({ midStreamError: { afterEvents: 4, message: 'The model crashed.' } });
    const stream = await client.responses.create({ model: 'gpt-4o', input: 'hi', stream: true });
    const types: string[] = [];
    const failure = await (async () => {
      for await (const event of stream) types.push(event.type);
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toContain('The model crashed.');
    expect(types).toHaveLength(4);

    simulator.script({ midStreamError: { afterEvents: 2, code: 'rate_limit_exceeded', message: 'Slow down.' } });
    const raw = await fetch(`${simulator.baseURL}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', input: 'hi', stream: true }),
    });
    const last = (await raw.text()).split('\n\n').filter(Boolean).at(-1) ?? '';
    expect(last.split('\n')[0]).toBe('event: error');
    expect(JSON.parse(last.split('\n')[1]?.slice('data: '.length) ?? '')).toEqual({
      type: 'error',
      code: 'rate_limit_exceeded',
      message: 'Slow down.',
      param: null,
      sequence_number: 2,
    });
  });
});

describe('summarizeResponsesRequest', () => {
  it('counts input items as messages and instructions and tools as prompt', () => {
    const summary = summarizeResponsesRequest(
      {
        instructions: 'abcd',
        input: [
          { role: 'developer', content: 'be kind' },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'call tool f' }] },
        ],
        tools: [{ type: 'function', name: 'f', parameters: {} }, { type: 'web_search' }],
        tool_choice: { type: 'function', name: 'f' },
        max_output_tokens: 50,
      },
      'gpt-4o',
    );
    expect(summary).toMatchObject({
      messageCount: 2,
      lastUserText: 'call tool f',
      tools: [{ name: 'f', schema: {} }],
      toolChoice: { kind: 'named', name: 'f' },
      maxTokens: 50,
      thinking: false,
    });
    expect(summary.promptChars).toBe(
      4 + 7 + 11 + JSON.stringify([{ type: 'function', name: 'f', parameters: {} }, { type: 'web_search' }]).length,
    );
  });

  it('treats a string input as one user message and a reasoning config as thinking', () => {
    expect(summarizeResponsesRequest({ input: 'hi', reasoning: { effort: 'low' } }, 'gpt-4o')).toMatchObject({
      messageCount: 1,
      lastUserText: 'hi',
      thinking: true,
    });
  });

  it('validates input the way the API does', () => {
    expect(responsesRequestError({ input: 'x' })).toBeUndefined();
    expect(responsesRequestError({ previous_response_id: 'resp_1' })).toBeUndefined();
    expect(responsesRequestError({ input: { role: 'user' } })).toMatchObject({ param: 'input', code: 'invalid_type' });
    expect(responsesRequestError({ input: 'x', max_output_tokens: 5 })).toMatchObject({
      param: 'max_output_tokens',
      code: 'integer_below_min_value',
    });
  });
});
