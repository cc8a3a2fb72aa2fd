import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintClientKey, mintServiceKey } from './helpers.js';
import type { InferenceFixture } from './inference-helpers.js';
import { admin, answerAlways, chat, metered, metricsText, startGovernanceFixture } from './governance-fixture.js';

describe('spend reports', () => {
  let fixture: InferenceFixture;
  let serviceKeyId: string;
  beforeAll(async () => {
    fixture = await startGovernanceFixture();
    const app = fixture.gateway.app;
    // gpt-4.1 $0.01 a call (1000 in, 1000 out); claude-haiku-4-5 1000 in × $1/M + 1000 out × $5/M = $0.006.
    answerAlways(fixture.openai, { usage: { inputTokens: 1_000, outputTokens: 1_000 } });
    answerAlways(fixture.anthropic, { usage: { inputTokens: 1_000, outputTokens: 1_000 } });
    const grace = await mintClientKey(app, { user: 'grace@example.com', team: 'navy' });
    const service = await mintServiceKey(app, { name: 'etl', team: 'data' });
    serviceKeyId = service.record.id;
    for (let call = 0; call < 3; call += 1)
      await chat(app, fixture.clientKey, {}, { 'x-gw-property-feature': 'search' });
    await chat(
      app,
      fixture.clientKey,
      { model: 'claude-haiku-4-5' },
      { 'x-gw-provider': 'anthropic', 'x-gw-property-feature': 'chat' },
    );
    await chat(app, grace.key, {}, { 'x-gw-property-feature': 'search' });
    await chat(app, service.key);
    await admin(app, 'PATCH', '/admin/user-caps/grace@example.com', { monthlyTokens: 2_000 });
    await chat(app, grace.key);
    await chat(app, grace.key);
    await metered(fixture.gateway);
    await fixture.gateway.deps.spendWriter.drain();
  });
  afterAll(async () => {
    await fixture.close();
  });
  const get = (url: string) => admin(fixture.gateway.app, 'GET', url);

  it('reports per-user usage heaviest first with per-model and per-day breakdowns, capped users and the org rollup', async () => {
    const response = await get('/admin/spend/usage');
    expect(response.statusCode).toBe(200);
    expect(response.headers.deprecation).toBe('true');
    const body = response.json();
    expect(body).toMatchObject({
      window: 'mtd',
      range: null,
      period: { start: '2026-11-01T00:00:00.000Z' },
      limit: 200,
      truncated: false,
    });
    expect(body.users.map((user: { user: string | null; keyId: string | null }) => user.user ?? user.keyId)).toEqual([
      'ada@example.com',
      'grace@example.com',
      serviceKeyId,
    ]);
    const ada = body.users[0];
    expect(ada).toMatchObject({ team: 'compilers', requests: 4, totalTokens: 8_000, rejected: 0 });
    expect(ada.costUsd).toBeCloseTo(0.036, 10);
    expect(ada.byModel).toEqual([
      { model: 'claude-haiku-4-5', requests: 1, totalTokens: 2_000, costUsd: 0.006 },
      { model: 'gpt-4.1', requests: 3, totalTokens: 6_000, costUsd: 0.03 },
    ]);
    expect(ada.byDay).toEqual([{ day: '2026-11-23', requests: 4, totalTokens: 8_000, costUsd: 0.036 }]);
    expect(body.users[1]).toMatchObject({ user: 'grace@example.com', requests: 1, rejected: 2 });
    expect(body.cappedUsers).toEqual([
      {
        user: 'grace@example.com',
        reset: 'monthly',
        monthlyTokens: 2_000,
        maxUsd: null,
        softUsd: null,
        tokensUsed: 2_000,
        usdUsed: 0.01,
        tokensPercent: 100,
        usdPercent: null,
        status: 'over',
      },
    ]);
    expect(body.models.map((model: { model: string }) => model.model)).toEqual(['gpt-4.1', 'claude-haiku-4-5']);
    expect(body.models[0]).toMatchObject({ provider: 'openai', requests: 5, totalTokens: 10_000, costUsd: 0.05 });
    expect(body.totals).toMatchObject({ requests: 6, users: 3, totalTokens: 12_000 });
    expect(body.totals.costUsd).toBeCloseTo(0.056, 10);
  });

  it('limits to the heaviest users with truncated, and echoes from and to as range', async () => {
    const limited = (await get('/admin/v1/spend/usage?limit=1')).json();
    expect(limited).toMatchObject({ limit: 1, truncated: true });
    expect(limited.users).toHaveLength(1);
    const ranged = (await get('/admin/v1/spend/usage?from=2026-11-23&to=2026-11-23')).json();
    expect(ranged.range).toEqual({ from: '2026-11-23', to: '2026-11-23' });
    expect(ranged.period).toEqual({ start: '2026-11-23T00:00:00.000Z', end: '2026-11-24T00:00:00.000Z' });
    expect(ranged.users).toHaveLength(3);
    const before = (await get('/admin/spend/usage?from=2026-11-01&to=2026-11-22')).json();
    expect(before.users).toEqual([]);
    expect((await get('/admin/spend/usage?window=prev-month')).json().users).toEqual([]);
  });

  it.each([
    ['/admin/spend/usage?window=1y', 'window'],
    ['/admin/spend/usage?limit=0', 'limit'],
    ['/admin/spend/usage?limit=2001', 'limit'],
    ['/admin/spend/usage?limit=ten', 'limit'],
    ['/admin/spend/usage?from=2026-02-30', 'from'],
    ['/admin/spend/usage?from=2026-11-10&to=2026-11-01', 'to'],
    ['/admin/spend/usage?colour=blue', 'colour'],
    ['/admin/spend/usage/properties', 'name'],
    ['/admin/spend/usage/properties?name=-bad', 'name'],
    ['/admin/v1/spend/usage/properties?name=feature&window=year', 'window'],
    ['/admin/spend/dashboard?window=forever', 'window'],
  ])('answers 400 naming the parameter for %s', async (url, parameter) => {
    const response = await get(url);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(parameter);
  });

  it('breaks spend down by a custom property', async () => {
    const body = (await get('/admin/v1/spend/usage/properties?name=feature')).json();
    expect(body).toMatchObject({ name: 'feature', window: 'mtd', truncated: false });
    expect(body.values).toEqual([
      { value: 'search', requests: 4, totalTokens: 8_000, costUsd: 0.04 },
      { value: 'chat', requests: 1, totalTokens: 2_000, costUsd: 0.006 },
    ]);
  });

  it('summarises the live ring and the windowed dashboard', async () => {
    const summary = (await get('/admin/spend')).json();
    expect(summary.records).toBe(8);
    expect(summary.users[0]).toMatchObject({ user: 'ada@example.com', requests: 4, totalTokens: 8_000 });
    expect((await get('/admin/v1/spend/summary')).json()).toEqual(summary);

    const dashboard = (await get('/admin/spend/dashboard?window=24h')).json();
    expect(dashboard).toMatchObject({
      window: '24h',
      bucket: 'hour',
      totals: { requests: 6, rejected: 2, errors: 0, activeUsers: 2 },
    });
    expect(dashboard.series).toEqual([
      { start: '2026-11-23T12:00:00Z', requests: 6, errors: 0, totalTokens: 12_000, costUsd: 0.056 },
    ]);
    expect(dashboard.rejections).toEqual([{ code: 'user_token_cap_exceeded', count: 2 }]);
    expect(dashboard.topModels[0]).toMatchObject({ model: 'gpt-4.1', requests: 5 });
    expect(dashboard.providers.map((provider: { provider: string }) => provider.provider).sort()).toEqual([
      'anthropic',
      'openai',
    ]);
    expect((await get('/admin/v1/spend/dashboard')).json()).toMatchObject({ window: 'mtd', bucket: 'day' });
  });

  it('exposes the documented metrics on /metrics', async () => {
    const metrics = await metricsText(fixture.gateway.app);
    for (const name of [
      'gw_requests_total',
      'gen_ai_server_request_duration_seconds',
      'gen_ai_client_operation_duration_seconds',
      'gen_ai_client_token_usage',
      'gw_overhead_latency_seconds',
      'gw_cost_usd_total',
      'gw_rejections_total{code="user_token_cap_exceeded"} 2',
      'gw_optimizer_outcomes_total',
      'gw_spend_queue_depth 0',
      'gw_spend_write_failures_total',
      'gw_spend_spilled_total',
      'gw_admission_fail_open_total',
      'gw_usage_counter_failures_total',
    ]) {
      expect(metrics, name).toContain(name);
    }
    expect(metrics).not.toContain('ada@example.com');
  });
});
