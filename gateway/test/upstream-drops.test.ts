import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithSdks, spendRowOf, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

// A provider that fails after it started answering: the answer the gateway was reading whole breaks off, or a stream
// tells its failure in band. Either way it is the provider's failure, relayed and recorded as such, never a 500 or a
// success.
describe('provider failures after the answer began', () => {
  let fixture: InferenceFixture;
  let client: OpenAI;
  let baseUrl: string;

  beforeAll(async () => {
    fixture = await startInferenceFixture();
    ({ baseUrl, openai: client } = await listenWithSdks(fixture));
  });
  afterAll(async () => {
    await fixture.close();
  });

  for (const [lane, path, body] of [
    ['chat completions', '/v1/chat/completions', { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] }],
    ['the catch-all', '/v1/responses', { model: 'gpt-4.1', input: 'hi' }],
  ] as const) {
    it(`answers a JSON body the provider cut midway with 502 upstream_interrupted on ${lane}`, async () => {
      fixture.openai.script({ dropConnection: { afterEvents: 1 } });
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { ...fixture.auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(502);
      expect(response.headers.get('x-gw-error-source')).toBe('upstream');
      expect(response.headers.get('x-gw-upstream-provider')).toBe('openai');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('upstream_interrupted');
      expect(
        await spendRowOf(fixture.gateway, { headers: { 'x-gw-trace-id': response.headers.get('x-gw-trace-id') } }),
      ).toMatchObject({ status: 502, error_code: 'upstream_interrupted' });
    });
  }

  it('records a passthrough stream that told the provider failing in band as that failure, not a success', async () => {
    fixture.openai.script({
      midStreamError: { afterEvents: 3, message: 'The server had an error while processing your request.' },
    });
    const { data: stream, response } = await client.responses
      .create({ model: 'gpt-4.1', input: 'Count.', stream: true })
      .withResponse();
    const consume = async () => {
      for await (const event of stream) void event;
    };
    await expect(consume()).rejects.toThrow(/error while processing/);
    // The provider's final usage never came: the row carries the estimate, flagged.
    const row = await spendRowOf(fixture.gateway, {
      headers: { 'x-gw-trace-id': response.headers.get('x-gw-trace-id') },
    });
    expect(row).toMatchObject({
      status: 502,
      outcome: 'error',
      error_code: 'upstream_stream_error',
      stream: true,
      usage_estimated: true,
    });
    expect(Number(row.prompt_tokens)).toBeGreaterThan(0);
  });
});
