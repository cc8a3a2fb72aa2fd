import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithSdks, spendRows, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';
import { recordedSpend } from './spend-signals.js';

// A client that leaves cancels its provider call, and the spend row says the client left: 499 `client_closed`, not a
// provider failure nor a gateway one, whether it left before the provider answered or in the middle of a stream.
describe('call cancellation', () => {
  let fixture: InferenceFixture;
  let baseUrl: string;

  beforeAll(async () => {
    fixture = await startInferenceFixture();
    ({ baseUrl } = await listenWithSdks(fixture));
  });
  afterAll(async () => {
    await fixture.close();
  });

  /** The stored row of the call labelled `label`, once the metering stage has recorded it and the writer has written it. */
  const rowFor = async (label: string) => {
    const record = await recordedSpend(fixture.gateway, (candidate) => candidate.attribution.metadata?.case === label);
    expect(await fixture.gateway.deps.spendWriter.drain()).toBe(0);
    const row = (await spendRows(fixture.gateway)).find((candidate) => candidate.trace_id === record.traceId);
    if (!row) throw new Error(`no spend row for ${label}`);
    return row;
  };

  const call = (label: string, body: Record<string, unknown>, signal: AbortSignal) =>
    fetch(`${baseUrl}/v1/${body.max_tokens === undefined ? 'chat/completions' : 'messages'}`, {
      method: 'POST',
      headers: {
        ...fixture.auth,
        'content-type': 'application/json',
        'x-gw-metadata': JSON.stringify({ case: label }),
      },
      body: JSON.stringify(body),
      signal,
    });

  it('records a client that left before the provider answered as 499', async () => {
    fixture.openai.script({ latencyMs: 2_000 });
    const abort = new AbortController();
    const pending = call(
      'before-answer',
      { model: 'gpt-4.1', messages: [{ role: 'user', content: 'slow' }] },
      abort.signal,
    );
    await fixture.openai.waitForRequests(1);
    abort.abort();
    await expect(pending).rejects.toThrow();
    // The provider had the prompt: the row carries its estimate, flagged, and no output.
    const row = await rowFor('before-answer');
    expect(row).toMatchObject({
      status: 499,
      outcome: 'error',
      error_code: 'client_closed',
      provider: 'openai',
      usage_estimated: true,
      completion_tokens: 0,
    });
    expect(Number(row.prompt_tokens)).toBeGreaterThan(0);
  });

  it('records a client that left mid-stream on a translated lane as 499', async () => {
    // A Messages client served by the OpenAI-family provider: the stream is translated.
    fixture.openai.script({ eventDelayMs: 100 });
    const abort = new AbortController();
    const response = await call(
      'mid-stream',
      { model: 'gpt-4.1', max_tokens: 200, stream: true, messages: [{ role: 'user', content: 'stream slowly' }] },
      abort.signal,
    );
    const reader = response.body!.getReader();
    // Leave once some of the answer has arrived.
    let received = '';
    while ((received.match(/text_delta/g) ?? []).length < 2)
      received += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    await expect(reader.read()).rejects.toThrow();
    // OpenAI reports usage only in the last chunk: the row carries the gateway's estimate, flagged, not zero.
    const row = await rowFor('mid-stream');
    expect(row).toMatchObject({ status: 499, error_code: 'client_closed', stream: true, usage_estimated: true });
    expect(Number(row.prompt_tokens)).toBeGreaterThan(0);
    expect(Number(row.completion_tokens)).toBeGreaterThan(0);
    expect(Number(row.cost_usd)).toBeGreaterThan(0);
  });

  it("records a stream that completed with the provider's usage, not an estimate", async () => {
    fixture.openai.script({ usage: { inputTokens: 120, outputTokens: 30 } });
    const response = await call(
      'completed',
      { model: 'gpt-4.1', stream: true, messages: [{ role: 'user', content: 'hi' }] },
      new AbortController().signal,
    );
    await response.text();
    expect(await rowFor('completed')).toMatchObject({
      status: 200,
      stream: true,
      prompt_tokens: 120,
      completion_tokens: 30,
      usage_estimated: false,
    });
  });
});
