import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { counterKey } from '../src/governance/usage-counters.js';
import { monthPeriod } from '../src/governance/period.js';
import type { InferenceFixture } from './inference-helpers.js';
import {
  admin,
  answerAlways,
  chat,
  metered,
  metricsText,
  spendRowEventually,
  startGovernanceFixture,
} from './governance-fixture.js';
import { bearer, mintServiceKey } from './helpers.js';

describe('metering: usage counters, self-service and exact streamed cost', () => {
  let fixture: InferenceFixture;
  let stopAnswering: () => void = () => undefined;
  beforeAll(async () => {
    fixture = await startGovernanceFixture();
  });
  afterAll(async () => {
    await fixture.close();
  });
  afterEach(() => {
    stopAnswering();
    fixture.openai.reset();
    fixture.anthropic.reset();
  });
  const app = () => fixture.gateway.app;
  const me = (path: string, key = fixture.clientKey) =>
    app().inject({ method: 'GET', url: path, headers: bearer(key) });

  it('answers /v1/me/usage and /v1/me/limits for a person and for a service key', async () => {
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 1_000, outputTokens: 500 } });
    await chat(app(), fixture.clientKey);
    await chat(app(), fixture.clientKey);
    await metered(fixture.gateway);
    const usage = await me('/v1/me/usage');
    expect(usage.statusCode).toBe(200);
    // gpt-4.1: 1000 × $2/M + 500 × $8/M = $0.006 a call.
    expect(usage.json()).toMatchObject({
      subject: { kind: 'user', id: 'ada@example.com' },
      period: { month: '2026-11', start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
      requests: 2,
      tokens: 3_000,
      costUsd: 0.012,
      savingsUsd: 0,
      tokensSaved: 0,
      source: 'counters',
    });

    await admin(app(), 'PATCH', '/admin/user-caps/ada@example.com', { maxUsd: 1, softUsd: 0.01 });
    const limits = (await me('/v1/me/limits')).json();
    expect(limits).toEqual({
      userCap: {
        monthlyTokens: null,
        maxUsd: 1,
        softUsd: 0.01,
        reset: 'monthly',
        strict: false,
        periodStart: '2026-11-01T00:00:00.000Z',
        resetsAt: '2026-12-01T00:00:00.000Z',
        tokensUsed: 3_000,
        usdUsed: 0.012,
        status: 'soft',
      },
      serviceKeyBudget: null,
      rateLimits: { requestsPerMinute: null, concurrentRequests: null },
    });

    const service = await mintServiceKey(app(), { name: 'etl', team: 'data', monthlyBudgetUsd: 5 });
    await chat(app(), service.key);
    await metered(fixture.gateway);
    expect((await me('/v1/me/usage', service.key)).json()).toMatchObject({
      subject: { kind: 'service-key', id: service.record.id },
      requests: 1,
      tokens: 1_500,
      costUsd: 0.006,
    });
    expect((await me('/v1/me/limits', service.key)).json()).toMatchObject({
      userCap: null,
      serviceKeyBudget: {
        monthlyBudgetUsd: 5,
        usedUsd: 0.006,
        remainingUsd: 4.994,
        status: 'under',
        resetsAt: '2026-12-01T00:00:00.000Z',
      },
    });
  });

  it('reconciles lost counters with the gw_spend sums, never lowering a counter that is ahead', async () => {
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 100, outputTokens: 100 } });
    const service = await mintServiceKey(app(), { name: 'reconciled', team: 'data' });
    for (let call = 0; call < 3; call += 1) await chat(app(), service.key);
    await metered(fixture.gateway);
    await fixture.gateway.deps.spendWriter.drain();
    const { coord, governance } = fixture.gateway.deps;
    const month = monthPeriod(fixture.gateway.clock.now());
    const subject = { kind: 'key', id: service.record.id } as const;
    // Redis lost the month's counters (a restart without persistence).
    for (const field of ['tokens', 'costMicros', 'requests'] as const)
      await coord.delete(counterKey(subject, month, field));
    expect((await me('/v1/me/usage', service.key)).json()).toMatchObject({ requests: 0, tokens: 0 });

    expect(await governance.stores.reconciler.runOnce()).toBeGreaterThanOrEqual(3);
    expect((await me('/v1/me/usage', service.key)).json()).toMatchObject({ requests: 3, tokens: 600, costUsd: 0.003 });
    expect(await metricsText(app())).toMatch(/gw_usage_counter_corrections_total [1-9]/);

    await coord.incrementBy(counterKey(subject, month, 'requests'), 5);
    await governance.stores.reconciler.runOnce();
    expect((await me('/v1/me/usage', service.key)).json().requests).toBe(8);
  });

  it('prices a streamed OpenAI call from the final usage chunk, cached input and reasoning tokens included', async () => {
    stopAnswering = answerAlways(fixture.openai, {
      usage: { inputTokens: 1_000, cachedInputTokens: 400, outputTokens: 200, reasoningTokens: 50 },
    });
    const response = await chat(app(), fixture.clientKey, { model: 'o4-mini', stream: true });
    expect(response.statusCode).toBe(200);
    const row = await spendRowEventually(fixture.gateway, response);
    expect(row).toMatchObject({
      stream: true,
      prompt_tokens: 1_000,
      cache_read_tokens: 400,
      cache_write_tokens: 0,
      completion_tokens: 200,
      reasoning_tokens: 50,
      total_tokens: 1_200,
    });
    // o4-mini: 600 uncached × $1.10/M + 400 cached × $0.275/M + 200 output (reasoning included) × $4.40/M.
    expect(Number(row.cost_usd)).toBeCloseTo((600 * 1.1 + 400 * 0.275 + 200 * 4.4) / 1e6, 12);
    const metrics = await metricsText(app());
    expect(metrics).toContain('gen_ai_server_time_to_first_token_seconds_count{provider="openai",model="o4-mini"} 1');
    expect(metrics).toContain('gen_ai_server_time_per_output_token_seconds_count{provider="openai",model="o4-mini"} 1');
    expect(metrics).toContain(
      'gen_ai_client_token_usage_count{gen_ai_token_type="reasoning",provider="openai",model="o4-mini"} 1',
    );
  });

  it('prices a streamed Messages call from message_delta usage, cache reads and cache writes at their own rates', async () => {
    stopAnswering = answerAlways(fixture.anthropic, {
      usage: { inputTokens: 300, cachedInputTokens: 500, cacheCreationInputTokens: 200, outputTokens: 100 },
    });
    const response = await app().inject({
      method: 'POST',
      url: '/v1/messages',
      headers: { ...fixture.auth, 'content-type': 'application/json', 'x-gw-provider': 'anthropic' },
      payload: {
        model: 'claude-sonnet-4-5',
        max_tokens: 1_024,
        stream: true,
        thinking: { type: 'enabled', budget_tokens: 512 },
        messages: [{ role: 'user', content: 'hi' }],
      },
    });
    expect(response.statusCode).toBe(200);
    const row = await spendRowEventually(fixture.gateway, response);
    expect(row).toMatchObject({
      stream: true,
      prompt_tokens: 1_000,
      cache_read_tokens: 500,
      cache_write_tokens: 200,
      completion_tokens: 100,
      reasoning_effort: null,
    });
    // claude-sonnet-4-5: 300 × $3/M + 500 reads × $0.30/M + 200 writes × $3.75/M + 100 output (thinking included) × $15/M.
    expect(Number(row.cost_usd)).toBeCloseTo((300 * 3 + 500 * 0.3 + 200 * 3.75 + 100 * 15) / 1e6, 12);
    await metered(fixture.gateway);
    const metrics = await metricsText(app());
    expect(metrics).toContain(
      'gen_ai_client_token_usage_count{gen_ai_token_type="cache_write",provider="anthropic",model="claude-sonnet-4-5"} 1',
    );
    expect(metrics).toContain(
      'gen_ai_client_operation_duration_seconds_count{provider="anthropic",model="claude-sonnet-4-5"}',
    );
  });
});
