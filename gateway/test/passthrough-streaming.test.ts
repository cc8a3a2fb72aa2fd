import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatedFileContent } from '@gw/testkit';
import { listenWithSdks, spendRowOf, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

const downloadBytes = 20 * 1024 * 1024;

// The `/v1/*` catch-all relays what it does not parse as the provider sends it: a streamed Responses
// call event by event, a file's content chunk by chunk, never whole in memory; and it is metered like the rest.
describe('passthrough streaming', () => {
  let fixture: InferenceFixture;
  let client: OpenAI;

  beforeAll(async () => {
    fixture = await startInferenceFixture({ openai: { fileContentBytes: downloadBytes } });
    ({ openai: client } = await listenWithSdks(fixture));
  });
  afterAll(async () => {
    await fixture.close();
  });

  it('streams a Responses call event by event and meters its usage from response.completed', async () => {
    fixture.openai.script({
      eventDelayMs: 60,
      reply: { text: 'one two three four five six seven eight', usage: { inputTokens: 321, outputTokens: 54 } },
    });
    const stream = await client.responses
      .create({ model: 'gpt-4.1', input: 'Count to eight.', stream: true })
      .withResponse();
    const arrivals: number[] = [];
    const types: string[] = [];
    for await (const event of stream.data) {
      arrivals.push(Date.now());
      types.push(event.type);
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types.filter((type) => type === 'response.output_text.delta').length).toBeGreaterThan(3);
    // Paced upstream events reach the client paced: a relay that buffered the answer would deliver them together.
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThan(60 * 4);

    const row = await spendRowOf(fixture.gateway, {
      headers: { 'x-gw-trace-id': stream.response.headers.get('x-gw-trace-id') },
    });
    expect(row).toMatchObject({
      endpoint: '/v1/responses',
      status: 200,
      outcome: 'success',
      provider: 'openai',
      stream: true,
      prompt_tokens: 321,
      completion_tokens: 54,
    });
  });

  it('meters a JSON Responses call and relays it as sent', async () => {
    fixture.openai.script({ usage: { inputTokens: 40, outputTokens: 9 } });
    const { data, response } = await client.responses.create({ model: 'gpt-4.1', input: 'Hello' }).withResponse();
    expect(data.object).toBe('response');
    expect(data.output_text.length).toBeGreaterThan(0);
    const row = await spendRowOf(fixture.gateway, {
      headers: { 'x-gw-trace-id': response.headers.get('x-gw-trace-id') },
    });
    expect(row).toMatchObject({
      endpoint: '/v1/responses',
      status: 200,
      stream: false,
      prompt_tokens: 40,
      completion_tokens: 9,
    });
  });

  it('relays a large file download byte for byte with its headers', async () => {
    const response = await client.files.content('file-abc123');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="file-abc123.jsonl"');
    expect(response.headers.get('content-length')).toBe(String(downloadBytes));
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBe(downloadBytes);
    expect(body.equals(simulatedFileContent('file-abc123', downloadBytes))).toBe(true);
  });

  it('cuts the client connection when the provider drops mid-stream, recorded as the provider failing', async () => {
    fixture.openai.script({ eventDelayMs: 5, dropConnection: { afterEvents: 3 } });
    const { data: stream, response } = await client.responses
      .create({ model: 'gpt-4.1', input: 'Count.', stream: true })
      .withResponse();
    const consume = async () => {
      for await (const event of stream) void event;
    };
    await expect(consume()).rejects.toThrow();
    const row = await spendRowOf(fixture.gateway, {
      headers: { 'x-gw-trace-id': response.headers.get('x-gw-trace-id') },
    });
    expect(row).toMatchObject({
      endpoint: '/v1/responses',
      status: 502,
      outcome: 'error',
      error_code: 'upstream_stream_interrupted',
    });
  });

  it('cancels the provider call when the client leaves mid-stream, recorded as 499', async () => {
    fixture.openai.script({ eventDelayMs: 100, reply: { text: 'a b c d e f g h i j k l m n o p' } });
    const abort = new AbortController();
    const { data: stream, response } = await client.responses
      .create({ model: 'gpt-4.1', input: 'Count slowly.', stream: true }, { signal: abort.signal })
      .withResponse();
    // The SDK ends the iteration quietly when its own signal aborts it.
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') abort.abort();
    }
    expect(types).not.toContain('response.completed');
    const row = await spendRowOf(fixture.gateway, {
      headers: { 'x-gw-trace-id': response.headers.get('x-gw-trace-id') },
    });
    expect(row).toMatchObject({
      endpoint: '/v1/responses',
      status: 499,
      error_code: 'client_closed',
      usage_estimated: true,
    });
    expect(Number(row.prompt_tokens)).toBeGreaterThan(0);
    expect(Number(row.completion_tokens)).toBeGreaterThan(0);
  });
});
