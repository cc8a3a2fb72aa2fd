import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAnthropicSimulator, startOpenAiSimulator, type SimulatorHandle } from '../src/index.js';

interface Completion {
  choices: { finish_reason: string; text: string; message: { content: string } }[];
}

// Raw wire checks the SDKs would tolerate but a byte-faithful gateway must reproduce exactly.
describe('wire format details', () => {
  let openai: SimulatorHandle;
  let anthropic: SimulatorHandle;

  beforeAll(async () => {
    openai = await startOpenAiSimulator();
    anthropic = await startAnthropicSimulator();
  });
  afterAll(async () => {
    await openai.close();
    await anthropic.close();
  });

  const postOpenAi = (
    path: string,
    body: unknown,
    headers: Record<string, string> = { authorization: 'Bearer sk-any' },
  ) =>
    fetch(`${openai.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('frames OpenAI chunks as data-only SSE events terminated by [DONE]', async () => {
    const response = await postOpenAi('/v1/chat/completions', {
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    const frames = (await response.text()).split('\n\n').filter(Boolean);
    expect(frames.every((frame) => frame.startsWith('data: '))).toBe(true);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.slice(6)));
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && !('usage' in chunk))).toBe(true);
    expect(chunks[0].choices[0]).toEqual({
      index: 0,
      delta: { role: 'assistant', content: '', refusal: null },
      logprobs: null,
      finish_reason: null,
    });
    expect(chunks.at(-1).choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' });
  });

  it('streams tool-call deltas with index, id and name first, then argument fragments', async () => {
    const response = await postOpenAi('/v1/chat/completions', {
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'call tool lookup with {"query":"a fairly long search query"}' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
    });
    const chunks = (await response.text())
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: {'))
      .map((frame) => JSON.parse(frame.slice(6)));
    const deltas = chunks.map((chunk) => chunk.choices[0]?.delta);
    expect(deltas[0]).toMatchObject({
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, type: 'function', function: { name: 'lookup', arguments: '' } }],
    });
    expect(deltas[0].tool_calls[0].id).toMatch(/^call_/);
    const fragments = deltas.slice(1, -1).map((delta) => delta.tool_calls[0]);
    expect(fragments.length).toBeGreaterThan(1);
    expect(fragments.every((fragment) => fragment.index === 0 && fragment.id === undefined)).toBe(true);
    expect(fragments.map((fragment) => fragment.function.arguments).join('')).toBe(
      '{"query":"a fairly long search query"}',
    );
    expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
  });

  it('answers an unknown path with the OpenAI envelope and a request id', async () => {
    const response = await postOpenAi('/v1/nope', {});
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await response.json()).toEqual({
      error: { message: 'Invalid URL (POST /v1/nope)', type: 'invalid_request_error', param: null, code: null },
    });
  });

  it('rejects a missing key and Azure calls without api-version like the real services', async () => {
    const missing = await postOpenAi('/v1/chat/completions', { model: 'gpt-4o', messages: [] }, {});
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(
      /^You didn't provide an API key/,
    );
    const azure = await postOpenAi(
      '/openai/deployments/d1/chat/completions',
      { messages: [{ role: 'user', content: 'x' }] },
      { 'api-key': 'k' },
    );
    expect(azure.status).toBe(404);
    expect(await azure.json()).toEqual({ error: { code: '404', message: 'Resource not found' } });
  });

  it('applies the legacy completions default of 16 max tokens', async () => {
    const response = await postOpenAi('/v1/completions', {
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'Tell me a long story about simulators',
    });
    const completion = (await response.json()) as Completion;
    expect(completion.choices[0].finish_reason).toBe('length');
    expect(completion.choices[0].text).toHaveLength(64);
  });

  it('truncates a chat reply at max_tokens with finish_reason "length"', async () => {
    const response = await postOpenAi('/v1/chat/completions', {
      model: 'gpt-4o',
      max_tokens: 3,
      messages: [{ role: 'user', content: 'hello' }],
    });
    const completion = (await response.json()) as Completion;
    expect(completion.choices[0].finish_reason).toBe('length');
    expect(completion.choices[0].message.content).toBe('Simulated re');
  });

  it('sends Anthropic errors with request_id matching the request-id header', async () => {
    anthropic.script({ status: 429, headers: { 'retry-after': '7' } });
    const response = await fetch(`${anthropic.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-x', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    const body = (await response.json()) as { request_id: string };
    expect(body).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(body.request_id).toBe(response.headers.get('request-id'));
  });

  it('keeps simulated latency on real time when the test has installed fake timers', async () => {
    // node:http rather than fetch: undici's own timers would be frozen by the fake clock.
    const status = (): Promise<number> =>
      new Promise((resolve, reject) => {
        const outgoing = request(
          `${openai.url}/v1/chat/completions`,
          { method: 'POST', headers: { authorization: 'Bearer k' } },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        );
        outgoing.on('error', reject);
        outgoing.end(JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }));
      });
    vi.useFakeTimers();
    try {
      openai.script({ latencyMs: 20 });
      await expect(status()).resolves.toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});
