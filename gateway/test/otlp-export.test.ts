import { startOtlpReceiver, type OtlpReceiverHandle } from '@gw/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { listenWithSdks, spendRowOf, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

const prompt = 'the secret plan is written on the whiteboard';

describe('a span per call over OTLP/HTTP', () => {
  let fixture: InferenceFixture | undefined;
  let receiver: OtlpReceiverHandle | undefined;
  afterEach(async () => {
    await fixture?.close();
    await receiver?.close();
    fixture = undefined;
    receiver = undefined;
  });

  it('exports protobuf with the GenAI attribute names, the spend row’s figures and the collector headers, and no content', async () => {
    receiver = await startOtlpReceiver();
    fixture = await startInferenceFixture({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-token=s3cret%2Fvalue',
        OTEL_SERVICE_NAME: 'gw-test',
      },
    });
    const { openai } = await listenWithSdks(fixture);
    const { response } = await openai.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }] })
      .withResponse();
    const row = await spendRowOf(fixture.gateway, { headers: Object.fromEntries(response.headers.entries()) });

    const [span] = await receiver.waitForSpans(1);
    expect(receiver.exports[0]).toMatchObject({
      contentType: 'application/x-protobuf',
      headers: { 'x-collector-token': 's3cret/value' },
    });
    expect(span).toMatchObject({
      name: 'chat gpt-4o-mini',
      kind: 3,
      status: { code: 0 },
      resource: { 'service.name': 'gw-test' },
    });
    expect(span?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': row.prompt_tokens,
      'gen_ai.usage.output_tokens': row.completion_tokens,
      'http.response.status_code': 200,
      'gw.spend_id': row.id,
      'gw.team': 'compilers',
    });
    expect(span?.attributes['gw.cost_usd']).toBeCloseTo(Number(row.cost_usd), 9);
    expect(span.endTimeUnixNano >= span.startTimeUnixNano && span.startTimeUnixNano > 1_700_000_000_000_000_000n).toBe(
      true,
    );
    expect(JSON.stringify(span?.attributes)).not.toContain('whiteboard');
    expect(JSON.stringify(span?.attributes)).not.toContain('ada@example.com');
  });

  it('speaks OTLP/JSON to a traces URL when asked to, and marks a failed call as an error', async () => {
    receiver = await startOtlpReceiver();
    fixture = await startInferenceFixture({
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      },
    });
    const { openai } = await listenWithSdks(fixture);
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }] });
    await expect(
      openai.chat.completions.create({
        model: 'no-such-model-anywhere',
        messages: [{ role: 'user', content: prompt }],
      }),
    ).rejects.toThrow();
    const spans = await receiver.waitForSpans(2);
    expect(receiver.exports.every((exported) => exported.contentType === 'application/json')).toBe(true);
    expect(spans.map((span) => span.attributes['http.response.status_code'])).toEqual([200, 400]);
    expect(spans[1]).toMatchObject({
      status: { code: 2 },
      attributes: { 'gw.outcome': 'error', 'error.type': expect.any(String) },
    });
  });

  it('never delays or fails a call while the collector is down', async () => {
    receiver = await startOtlpReceiver();
    receiver.failNext(1_000, 503);
    fixture = await startInferenceFixture({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    const { openai } = await listenWithSdks(fixture);
    for (let call = 0; call < 5; call += 1) {
      const completion = await openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: prompt }],
      });
      expect(completion.choices[0]?.message.content).toEqual(expect.any(String));
    }
    expect(receiver.spans).toEqual([]);
  });
});
