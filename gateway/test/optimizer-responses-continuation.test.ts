import { createServer, type AddressInfo } from 'node:net';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@gw/platform';
import { runPipeline, type RunPipeline } from '@gw/optimizer';
import type { OptimizeCapabilities } from '@gw/contracts';
import { adminHeaders } from './helpers.js';
import { optimizerToken, startTestOptimizer, type TestOptimizer } from './mcp-support.js';
import { listenWithSdks, spendRowOf, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

const optimizerAdminToken = 'responses-optimizer-admin-token-0123';

// A settled tool output big enough for the in-place trims, then the fresh function result the agent sends back.
const settledLog = Array.from(
  { length: 400 },
  (_, index) => `  PASS test/unit/case-${index}.test.ts (${index % 7} ms)`,
).join('\n');
function transcript(session: string): OpenAI.Responses.ResponseCreateParamsNonStreaming {
  return {
    model: 'gpt-4o',
    instructions: `You are a coding agent (${session}).`,
    input: [
      { role: 'user', content: 'run the unit tests, then list the sources' },
      { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"cmd":"npm test"}' },
      { type: 'function_call_output', call_id: 'call_1', output: settledLog },
      { role: 'assistant', content: 'All tests pass. Listing the sources next.' },
      { type: 'function_call', call_id: 'call_2', name: 'shell', arguments: '{"cmd":"ls src"}' },
      { type: 'function_call_output', call_id: 'call_2', output: 'index.ts\nparser.ts\n' },
    ],
  };
}

// The Responses API lane through the official SDK: only a verified continuation transcript is offered to the real
// optimizer, the continuation path counts only once activated, and a call it did not serve goes out byte for byte.
describe('Responses lane: agent continuation through the pre-call hook', () => {
  const optimizerClock = new ManualClock(Date.UTC(2026, 10, 27, 9));
  const seen: Array<{ endpoint: string; capabilities: OptimizeCapabilities | undefined }> = [];
  let optimizer: TestOptimizer;
  let fixture: InferenceFixture;
  let sdk: OpenAI;

  beforeAll(async () => {
    const watched: RunPipeline = (input, deps) => {
      seen.push({ endpoint: input.endpoint, capabilities: input.capabilities });
      return runPipeline(input, deps);
    };
    optimizer = await startTestOptimizer({
      runPipeline: watched,
      adminToken: optimizerAdminToken,
      clock: optimizerClock,
      supportsAgentContinuation: true,
    });
    fixture = await startInferenceFixture({
      env: {
        GW_OPTIMIZER_URL: optimizer.url,
        GW_OPTIMIZER_TOKEN: optimizerToken,
        GW_OPTIMIZER_ADMIN_TOKEN: optimizerAdminToken,
      },
    });
    sdk = (await listenWithSdks(fixture)).openai;
  });

  afterAll(async () => {
    await fixture?.close();
    await optimizer?.close();
  });

  beforeEach(() => {
    seen.length = 0;
    fixture.openai.reset();
  });

  const ask = async (params: OpenAI.Responses.ResponseCreateParamsNonStreaming, session: string) => {
    const { data, response } = await sdk.responses
      .create(params, { headers: { 'x-gw-session-id': session } })
      .withResponse();
    const row = await spendRowOf(fixture.gateway, {
      headers: { 'x-gw-trace-id': response.headers.get('x-gw-trace-id') },
    });
    return { data, row, optimization: response.headers.get('x-gw-optimization') };
  };

  it('keeps everything the rules exclude on the byte-faithful passthrough, without asking the optimizer', async () => {
    const plain: OpenAI.Responses.ResponseCreateParamsNonStreaming = { model: 'gpt-4o', input: 'Say hello.' };
    const withTools: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      ...transcript('tools'),
      tools: [{ type: 'function', name: 'shell', parameters: { type: 'object', properties: {} }, strict: false }],
    };
    const userLast: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      ...transcript('user-last'),
      input: [
        ...(transcript('user-last').input as OpenAI.Responses.ResponseInputItem[]),
        { role: 'user', content: 'and now?' },
      ],
    };
    for (const [name, params] of Object.entries({ plain, withTools, userLast })) {
      const answer = await ask(params, `excluded-${name}`);
      expect(answer.data.object).toBe('response');
      expect(answer.optimization).toBeNull();
      expect(answer.row).toMatchObject({
        endpoint: '/v1/responses',
        status: 200,
        optimization_status: null,
        evidence_class: null,
      });
    }
    expect(seen).toEqual([]);
    expect(fixture.openai.requests.map((request) => request.body)).toEqual([
      JSON.stringify(plain),
      JSON.stringify(withTools),
      JSON.stringify(userLast),
    ]);
  });

  it('before activation: asks with agentContinuation, fails open with the client’s bytes and holds the session', async () => {
    const params = transcript('before');
    const first = await ask(params, 'before-activation');
    expect(seen).toEqual([
      {
        endpoint: '/v1/responses',
        capabilities: expect.objectContaining({ agentContinuation: true, retrievalDiscovery: 'none' }) as unknown,
      },
    ]);
    expect(first.optimization).toBe('skipped');
    expect(first.row).toMatchObject({
      optimization_status: 'skipped',
      optimization_reason: 'continuation_unavailable',
      evidence_class: 'toolless',
      tokens_saved: 0,
    });
    expect(fixture.openai.requests[0]?.body).toBe(JSON.stringify(params));

    // The held session's next turn is not offered at all, and goes out as sent.
    const again = await ask(params, 'before-activation');
    expect(seen).toHaveLength(1);
    expect(again.row).toMatchObject({
      optimization_status: 'skipped',
      optimization_reason: 'session_held',
      evidence_class: null,
    });
    expect(fixture.openai.requests[1]?.body).toBe(JSON.stringify(params));
  });

  it('once the activation instant has passed, a new session takes the continuation path', async () => {
    const early = await fixture.gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/optimizer',
      headers: adminHeaders,
      payload: { rollouts: { agentContinuationV1ActivateAt: new Date(optimizerClock.now() + 10_000).toISOString() } },
    });
    expect(early.statusCode, early.body).toBe(400);
    const activation = await fixture.gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/optimizer',
      headers: adminHeaders,
      payload: { rollouts: { agentContinuationV1ActivateAt: new Date(optimizerClock.now() + 61_000).toISOString() } },
    });
    expect(activation.statusCode, activation.body).toBe(200);

    // Set but not yet reached: still the fail-open answer.
    const waiting = await ask(transcript('waiting'), 'waiting-for-activation');
    expect(waiting.row).toMatchObject({ optimization_reason: 'continuation_unavailable' });

    optimizerClock.advance(61_000);
    const params = transcript('after');
    const served = await ask(params, 'after-activation');
    expect(served.data.object).toBe('response');
    expect(served.row).toMatchObject({
      optimization_status: 'applied',
      optimization_reason: null,
      evidence_class: 'toolless',
    });
    expect(Number(served.row.tokens_saved)).toBeGreaterThan(1000);
    const forwarded = fixture.openai.requests.at(-1);
    const input = (forwarded?.json as { input: Array<Record<string, unknown>> }).input;
    // The settled log is trimmed in place with no handle (continuation grants no retrieval); the fresh function
    // result goes out exactly as sent.
    expect(forwarded?.body.length).toBeLessThan(JSON.stringify(params).length / 2);
    expect(forwarded?.body).not.toMatch(/ctx_[A-Za-z0-9_-]{24}/);
    expect(input.at(-1)).toEqual((params.input as OpenAI.Responses.ResponseInputItem[]).at(-1));

    // The next turn of the session replays the pinned rewrite byte for byte.
    const next = await ask(params, 'after-activation');
    expect(next.row).toMatchObject({ optimization_status: 'applied', evidence_class: 'toolless' });
    expect(fixture.openai.requests.at(-1)?.body).toBe(forwarded?.body);
  });

  it('a connected key (live retrieval lease) still takes the handle-free continuation path', async () => {
    const heartbeat = await fixture.gateway.app.inject({
      method: 'POST',
      url: '/connect/mcp-heartbeat',
      headers: fixture.auth,
    });
    expect(heartbeat.statusCode, heartbeat.body).toBe(200);
    const served = await ask(transcript('leased'), 'leased-after-activation');
    expect(seen.at(-1)?.capabilities).toMatchObject({
      agentContinuation: true,
      retrievalDiscovery: 'lease_live',
      retrieveEvidence: false,
    });
    expect(served.row).toMatchObject({ optimization_status: 'applied', evidence_class: 'toolless' });
    expect(fixture.openai.requests.at(-1)?.body).not.toMatch(/ctx_[A-Za-z0-9_-]{24}/);
  });

  it('streams a continuation answer event by event on the continuation path', async () => {
    const params = transcript('streamed');
    const { data: stream, response } = await sdk.responses
      .create({ ...params, stream: true }, { headers: { 'x-gw-session-id': 'streamed-after-activation' } })
      .withResponse();
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types.at(-1)).toBe('response.completed');
    expect(response.headers.get('x-gw-optimization')).toBe('applied');
    const row = await spendRowOf(fixture.gateway, {
      headers: { 'x-gw-trace-id': response.headers.get('x-gw-trace-id') },
    });
    expect(row).toMatchObject({ stream: true, optimization_status: 'applied', evidence_class: 'toolless' });
    expect((fixture.openai.requests.at(-1)?.json as { stream?: boolean }).stream).toBe(true);
  });
});

describe('Responses lane: an optimizer that cannot answer', () => {
  let fixture: InferenceFixture;
  let sdk: OpenAI;

  beforeAll(async () => {
    // Nothing listens on a port just closed: every optimize call fails at once.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    fixture = await startInferenceFixture({
      env: { GW_OPTIMIZER_URL: `http://127.0.0.1:${port}`, GW_OPTIMIZER_TOKEN: optimizerToken },
    });
    sdk = (await listenWithSdks(fixture)).openai;
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('fails open with the client’s bytes and holds the session, so its next turn is not offered', async () => {
    const params = transcript('unreachable');
    const rows = [];
    for (let turn = 0; turn < 2; turn += 1) {
      const { response } = await sdk.responses
        .create(params, { headers: { 'x-gw-session-id': 'unreachable' } })
        .withResponse();
      rows.push(
        await spendRowOf(fixture.gateway, { headers: { 'x-gw-trace-id': response.headers.get('x-gw-trace-id') } }),
      );
    }
    expect(rows[0]).toMatchObject({ status: 200, optimization_status: 'error', evidence_class: null });
    expect(rows[1]).toMatchObject({ status: 200, optimization_status: 'skipped', optimization_reason: 'session_held' });
    expect(fixture.openai.requests.map((request) => request.body)).toEqual([
      JSON.stringify(params),
      JSON.stringify(params),
    ]);
  });
});
