import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { optimizeResponseSchema } from '@gw/contracts';
import type { RunPipeline } from '../src/routes/pipeline-port.js';
import { adminAuth, auth, chatRequest, numberedLines, stashingPipeline, testApp } from './support/test-app.js';

let store: TestDb;
beforeAll(async () => {
  store = await createMemoryPgliteDb();
});
afterAll(async () => {
  await store.dispose();
});

const longOutput = numberedLines(120, 'PASS test/unit');

function optimize(app: Awaited<ReturnType<typeof testApp>>['app'], body: Record<string, unknown>) {
  return app.inject({
    method: 'POST',
    url: '/v1/optimize',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

describe('POST /v1/optimize', () => {
  it('answers byte-identical bodies for the same input, handles and optimizationId included', async () => {
    const { app } = await testApp({ db: store.db });
    const body = {
      endpoint: '/v1/chat/completions',
      request: chatRequest(longOutput),
      metadata: { user: 'ada', gatewaySessionId: 's1' },
    };
    const first = await optimize(app, body);
    const second = await optimize(app, body);
    expect(first.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    // A second replica with the same content key mints the same handles.
    const replica = await testApp({ db: store.db });
    expect((await optimize(replica.app, body)).body).toBe(first.body);
  });

  it('speaks Optimizer Protocol v1: version, features, id, decisions, totals, suppressed kinds and timings', async () => {
    const { app } = await testApp({ db: store.db });
    const response = (
      await optimize(app, {
        endpoint: '/v1/chat/completions',
        request: chatRequest(longOutput),
        metadata: { user: 'ada' },
      })
    ).json();
    expect(optimizeResponseSchema.parse(response)).toBeTruthy();
    expect(response).toMatchObject({
      protocolVersion: 1,
      features: { persistentTranscriptPolicyV1: true, agentContinuationV1: false },
      cacheHit: false,
      cacheEligible: true,
      suppressedKinds: [],
    });
    expect(response.optimizationId).toMatch(/^opt_[A-Za-z0-9_-]{27}$/);
    expect(response.decisions).toEqual([
      expect.objectContaining({ kind: 'stash_tool_output', estimatedTokensSaved: expect.any(Number) }),
    ]);
    expect(response.estimatedTokensSaved).toBe(response.decisions[0].estimatedTokensSaved);
    expect(response.request.messages[2].content).toMatch(/^\[elided; gw_retrieve ctx_[A-Za-z0-9_-]{24,}\]$/);
    expect(response).not.toHaveProperty('pins');
  });

  it('returns pins only when the request carried them, even an empty array', async () => {
    const { app } = await testApp({ db: store.db });
    const base = { endpoint: '/v1/chat/completions', request: chatRequest('short') };
    expect((await optimize(app, base)).json()).not.toHaveProperty('pins');
    expect((await optimize(app, { ...base, pins: [] })).json().pins).toEqual([]);
    const pins = [{ messageIndex: 2, spanHash: 'abc', recipe: { kind: 'x' } }];
    expect((await optimize(app, { ...base, pins })).json().pins).toEqual(pins);
  });

  it('emits no handle and keeps the bytes when no durable store is configured', async () => {
    const { app } = await testApp();
    const response = (
      await optimize(app, {
        endpoint: '/v1/chat/completions',
        request: chatRequest(longOutput),
        metadata: { user: 'ada' },
      })
    ).json();
    expect(response.request.messages[2].content).toBe(longOutput);
    expect(response.decisions).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/health' })).json().retrievalStore.state).toBe('unconfigured');
  });

  it('fails open with the original request when the pipeline throws', async () => {
    const failing: RunPipeline = () => Promise.reject(new Error('strategy bug'));
    const { app } = await testApp({ runPipeline: failing });
    const request = chatRequest(longOutput);
    const response = await optimize(app, { endpoint: '/v1/chat/completions', request, pins: [] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ request, decisions: [], estimatedTokensSaved: 0, pins: [] });
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('gw_optimizer_optimize_requests_total{outcome="error"} 1');
  });

  it('honours kill switches by endpoint, model, user and team', async () => {
    const { app } = await testApp({ db: store.db });
    const put = await app.inject({
      method: 'PUT',
      url: '/admin/optimizer/settings',
      headers: adminAuth,
      payload: {
        strategies: [
          { kind: 'stash_tool_output', enabled: false, team: 'platform' },
          { kind: 'stash_tool_output', enabled: true, team: 'platform', user: 'ada' },
        ],
      },
    });
    expect(put.statusCode).toBe(200);
    const request = chatRequest(longOutput);
    const off = (
      await optimize(app, { endpoint: '/v1/chat/completions', request, metadata: { user: 'bob', team: 'platform' } })
    ).json();
    expect(off.decisions).toEqual([]);
    const on = (
      await optimize(app, { endpoint: '/v1/chat/completions', request, metadata: { user: 'ada', team: 'platform' } })
    ).json();
    expect(on.decisions).toHaveLength(1);
  });

  it('assigns audited holdout deterministically and leaves holdout requests unoptimized', async () => {
    const { app } = await testApp({ db: store.db });
    await app.inject({
      method: 'PUT',
      url: '/admin/optimizer/settings',
      headers: adminAuth,
      payload: { config: { holdout: { enabled: true, fraction: 0.5, windowSeconds: 86_400 } } },
    });
    const cohorts = new Map<string, string>();
    for (let session = 0; session < 40; session += 1) {
      const body = {
        endpoint: '/v1/chat/completions',
        request: chatRequest(longOutput),
        metadata: { user: 'ada', sessionId: `s${session}` },
      };
      const response = (await optimize(app, body)).json();
      cohorts.set(`s${session}`, response.cohort);
      expect((await optimize(app, body)).json().cohort).toBe(response.cohort);
      if (response.cohort === 'holdout') {
        expect(response.decisions).toEqual([
          { kind: 'audited_holdout', summary: expect.any(String), estimatedTokensSaved: 0, estimatedSavingsUsd: 0 },
        ]);
        expect(response.request).toEqual(body.request);
      }
    }
    const arms = [...cohorts.values()];
    expect(arms.filter((arm) => arm === 'holdout').length).toBeGreaterThan(5);
    expect(arms.filter((arm) => arm === 'treated').length).toBeGreaterThan(5);
    // Unattributable requests carry no cohort.
    expect(
      (await optimize(app, { endpoint: '/v1/chat/completions', request: chatRequest('x') })).json(),
    ).not.toHaveProperty('cohort');
    const settings = (await app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth })).json();
    expect(settings.holdout.arms.holdout + settings.holdout.arms.treated).toBe(80);
  });

  it('withholds exactly one strategy on a per-strategy control row', async () => {
    const { app } = await testApp({ db: store.db, runPipeline: stashingPipeline });
    await app.inject({
      method: 'PUT',
      url: '/admin/optimizer/settings',
      headers: adminAuth,
      payload: { holdout: { enabled: true, fraction: 1, windowSeconds: 3_600, kinds: ['stash_tool_output'] } },
    });
    const response = (
      await optimize(app, {
        endpoint: '/v1/chat/completions',
        request: chatRequest(longOutput),
        metadata: { team: 'core', gatewaySessionId: 'g1' },
      })
    ).json();
    expect(response).toMatchObject({ cohort: 'holdout', cohortKind: 'stash_tool_output' });
    expect(response.decisions.map((decision: { kind: string }) => decision.kind)).toEqual(['audited_holdout']);
  });

  it('counts gateway and foreign callers on /health', async () => {
    const { app } = await testApp();
    await optimize(app, {
      endpoint: '/v1/chat/completions',
      request: chatRequest('x'),
      metadata: { gatewaySessionId: 'g' },
    });
    await optimize(app, {
      endpoint: '/v1/chat/completions',
      request: chatRequest('x'),
      metadata: { sessionId: 'adapter' },
    });
    const health = (await app.inject({ method: 'GET', url: '/health' })).json();
    expect(health.callers).toMatchObject({ gateway: 1, foreign: 1, firstForeignAt: '2026-01-15T12:00:00.000Z' });
  });

  it('answers 400 with a coded body for a malformed request', async () => {
    const { app } = await testApp();
    const missing = await optimize(app, { request: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('invalid_request');
    const broken = await app.inject({
      method: 'POST',
      url: '/v1/optimize',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"endpoint":',
    });
    expect(broken.statusCode).toBe(400);
  });
});

describe('POST /v1/optimize-response', () => {
  function optimizeResponse(
    app: Awaited<ReturnType<typeof testApp>>['app'],
    response: Record<string, unknown>,
    metadata: Record<string, unknown> = { user: 'ada' },
  ) {
    return app.inject({
      method: 'POST',
      url: '/v1/optimize-response',
      headers: auth,
      payload: { endpoint: '/v1/chat/completions', response, metadata },
    });
  }
  const laidOut =
    '{\n  "command": "npm test -- --grep \\"retry  timing\\"",\n  "timeout": 1.0,\n  "id": 12345678901234567890\n}';
  const toolCallResponse = () => ({
    id: 'chatcmpl-2',
    object: 'chat.completion',
    model: 'gpt-4o',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: laidOut } }],
        },
      },
    ],
  });

  it('passes a response with nothing to do through with no decisions', async () => {
    const { app } = await testApp();
    const response = {
      id: 'chatcmpl-1',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi  \n  there' } }],
    };
    expect((await optimizeResponse(app, response)).json()).toEqual({ protocolVersion: 1, response, decisions: [] });
  });

  it('removes the layout of tool-call arguments lexically: strings, number spellings and big integers stay', async () => {
    const { app } = await testApp();
    const answer = (await optimizeResponse(app, toolCallResponse())).json();
    const args = answer.response.choices[0].message.tool_calls[0].function.arguments;
    expect(args).toBe('{"command":"npm test -- --grep \\"retry  timing\\"","timeout":1.0,"id":12345678901234567890}');
    expect(JSON.parse(args)).toEqual(JSON.parse(laidOut));
    expect(answer.decisions).toEqual([
      expect.objectContaining({ kind: 'tool_arguments_minify', estimatedTokensSaved: expect.any(Number) }),
    ]);
    expect(answer.decisions[0].estimatedTokensSaved).toBeGreaterThan(0);
    // Deterministic: the same input gives the same bytes.
    expect((await optimizeResponse(app, toolCallResponse())).body).toBe(JSON.stringify(answer));
  });

  it('covers Responses function calls, and leaves Messages tool_use input and unparseable arguments alone', async () => {
    const { app } = await testApp();
    const responses = {
      object: 'response',
      model: 'gpt-4o',
      output: [{ type: 'function_call', call_id: 'c1', name: 'bash', arguments: laidOut }],
    };
    expect((await optimizeResponse(app, responses)).json().response.output[0].arguments).not.toContain('\n');
    const messages = {
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }],
    };
    expect((await optimizeResponse(app, messages)).json()).toEqual({
      protocolVersion: 1,
      response: messages,
      decisions: [],
    });
    const truncated = toolCallResponse();
    truncated.choices[0].message.tool_calls[0].function.arguments = '{\n  "command": "ls';
    expect((await optimizeResponse(app, truncated)).json().decisions).toEqual([]);
  });

  it('honours a kill switch for the kind, scoped by model', async () => {
    const { app } = await testApp();
    const put = await app.inject({
      method: 'PUT',
      url: '/admin/optimizer/settings',
      headers: adminAuth,
      payload: { strategies: [{ kind: 'tool_arguments_minify', enabled: false, model: 'gpt-4o' }] },
    });
    expect(put.statusCode).toBe(200);
    const answer = (await optimizeResponse(app, toolCallResponse())).json();
    expect(answer.response).toEqual(toolCallResponse());
    expect(answer.decisions).toEqual([]);
    const other = { ...toolCallResponse(), model: 'gpt-4.1' };
    expect((await optimizeResponse(app, other)).json().decisions).toHaveLength(1);
  });
});
