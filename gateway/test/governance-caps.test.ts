import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookSink, type WebhookSinkHandle } from '@gw/testkit';
import { mintClientKey } from './helpers.js';
import { spendRowOf, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';
import { admin, answerAlways, chat, metered, metricsText } from './governance-fixture.js';

const ada = 'ada@example.com';

describe('per-user caps', () => {
  let fixture: InferenceFixture;
  let sink: WebhookSinkHandle;
  let stopAnswering: () => void = () => undefined;
  beforeAll(async () => {
    fixture = await startInferenceFixture();
    sink = await startWebhookSink();
  });
  afterAll(async () => {
    await fixture.close();
    await sink.close();
  });
  beforeEach(async () => {
    stopAnswering();
    fixture.openai.reset();
    sink.reset();
    await admin(fixture.gateway.app, 'PUT', '/admin/user-caps', { caps: {}, alerts: null });
  });
  const app = () => fixture.gateway.app;

  it('merges PATCH: omitted kept, null clears, a value replaces; 400 on unknown fields; 409 on a stale revision', async () => {
    const first = await admin(app(), 'PATCH', `/admin/user-caps/${ada}`, { monthlyTokens: 1_000, maxUsd: 5 });
    expect(first.statusCode).toBe(200);
    expect(first.headers.deprecation).toBe('true');
    expect(first.json()).toMatchObject({
      user: ada,
      monthlyTokens: 1_000,
      maxUsd: 5,
      softUsd: null,
      reset: 'monthly',
      strict: false,
      revision: 1,
      usage: 0,
      budgetUsage: 0,
      status: 'under',
    });

    const second = await admin(app(), 'PATCH', `/admin/user-caps/${ada}`, {
      softUsd: 4,
      reset: 'weekly',
      expectedRevision: 1,
    });
    expect(second.json()).toMatchObject({ monthlyTokens: 1_000, maxUsd: 5, softUsd: 4, reset: 'weekly', revision: 2 });

    const cleared = await admin(app(), 'PATCH', `/admin/v1/users/${encodeURIComponent(ada)}/limits`, {
      maxUsd: null,
      softUsd: null,
      expectedRevision: '2',
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({
      monthlyTokens: 1_000,
      maxUsd: null,
      softUsd: null,
      reset: 'weekly',
      revision: 3,
    });

    const stale = await admin(app(), 'PATCH', `/admin/user-caps/${ada}`, { monthlyTokens: 5, expectedRevision: 2 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('conflict');
    const staleV1 = await admin(app(), 'PATCH', `/admin/v1/users/${encodeURIComponent(ada)}/limits`, {
      monthlyTokens: 5,
      expectedRevision: { revision: 3 },
    });
    expect(staleV1.statusCode).toBe(409);
    expect(staleV1.json().error).toMatchObject({ code: 'conflict', request_id: expect.any(String) });

    const unknown = await admin(app(), 'PATCH', `/admin/user-caps/${ada}`, { monthlyTokens: 5, monthlyTokenz: 5 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toContain('monthlyTokenz');
    const badReset = await admin(app(), 'PATCH', `/admin/user-caps/${ada}`, { reset: 'hourly' });
    expect(badReset.statusCode).toBe(400);
    expect(badReset.json().error.message).toContain('reset');
    const softOverMax = await admin(app(), 'PATCH', `/admin/user-caps/${ada}`, { maxUsd: 1, softUsd: 2 });
    expect(softOverMax.statusCode).toBe(400);

    const unchanged = await admin(app(), 'GET', `/admin/v1/users/${encodeURIComponent(ada)}/limits`);
    expect(unchanged.json()).toMatchObject({ monthlyTokens: 1_000, revision: 3 });
    expect((await admin(app(), 'GET', '/admin/v1/users/nobody%40example.com/limits')).statusCode).toBe(404);
  });

  it('replaces the whole map on PUT, keeps a write-only webhook it is not given, and never returns the URL', async () => {
    const hook = `${sink.url}/services/T000/B000/secret-token-123`;
    const put = await admin(app(), 'PUT', '/admin/user-caps', {
      caps: {
        [ada]: { monthlyTokens: 100, strict: true },
        'grace@example.com': {
          maxUsd: 2,
          reset: 'daily',
          alerts: { thresholdsPercent: [90], webhookUrl: `${hook}-grace` },
        },
      },
      alerts: { thresholdsPercent: [50, 100], webhookUrl: hook },
    });
    expect(put.statusCode).toBe(200);
    expect(put.body).not.toContain('secret-token');
    const body = put.json();
    expect(body.alerts).toEqual({ thresholdsPercent: [50, 100], webhookConfigured: true });
    expect(body.caps['grace@example.com']).toMatchObject({
      maxUsd: 2,
      reset: 'daily',
      alerts: { thresholdsPercent: [90], webhookConfigured: true },
    });
    expect(body.caps[ada]).toMatchObject({ monthlyTokens: 100, strict: true, alerts: null });
    expect(body.usage).toEqual({ [ada]: 0, 'grace@example.com': 0 });
    expect(body.budgetUsage).toEqual({ [ada]: 0, 'grace@example.com': 0 });

    const replaced = await admin(app(), 'PUT', '/admin/v1/users/limits', {
      caps: { [ada]: { monthlyTokens: 200 } },
      expectedRevision: body.revision,
    });
    expect(replaced.statusCode).toBe(200);
    expect(Object.keys(replaced.json().caps)).toEqual([ada]);
    expect(replaced.json().alerts.webhookConfigured).toBe(true);
    const listed = await admin(app(), 'GET', '/admin/user-caps');
    expect(listed.body).not.toContain('secret-token');
    expect(listed.json().caps[ada]).toMatchObject({ monthlyTokens: 200, strict: false });

    expect(
      (await admin(app(), 'PUT', '/admin/user-caps', { caps: {}, expectedRevision: body.revision })).statusCode,
    ).toBe(409);
    expect(
      (await admin(app(), 'PUT', '/admin/user-caps', { caps: { [ada]: { monthlyTokens: 1, extra: true } } }))
        .statusCode,
    ).toBe(400);
    const badUrl = await admin(app(), 'PUT', '/admin/user-caps', {
      caps: {},
      alerts: { webhookUrl: 'ftp://example.com/hook' },
    });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json().error.message).toContain('webhookUrl');
  });

  it('answers 402 user_token_cap_exceeded before any model call, records it content-free and reports it', async () => {
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 20, outputTokens: 20 } });
    await admin(app(), 'PATCH', `/admin/user-caps/${ada}`, { monthlyTokens: 50 });
    expect((await chat(app(), fixture.clientKey)).statusCode).toBe(200);
    await metered(fixture.gateway);
    expect((await chat(app(), fixture.clientKey)).statusCode).toBe(200);
    await metered(fixture.gateway);

    const denied = await chat(
      app(),
      fixture.clientKey,
      { messages: [{ role: 'user', content: 'a secret prompt' }] },
      { 'x-gw-property-feature': 'search' },
    );
    expect(denied.statusCode).toBe(402);
    expect(denied.headers['x-should-retry']).toBe('false');
    expect(denied.json().error).toMatchObject({ code: 'user_token_cap_exceeded', type: 'insufficient_quota' });
    expect(denied.json().error.message).toContain('80 of 50 tokens');
    expect(fixture.openai.requests).toHaveLength(2);

    const messagesLane = await app().inject({
      method: 'POST',
      url: '/v1/messages',
      headers: { ...fixture.auth, 'content-type': 'application/json' },
      payload: { model: 'claude-haiku-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(messagesLane.statusCode).toBe(402);
    expect(messagesLane.json()).toMatchObject({ type: 'error', error: { type: 'billing_error' } });

    const row = await spendRowOf(fixture.gateway, denied);
    expect(row).toMatchObject({
      outcome: 'rejected',
      status: 402,
      error_code: 'user_token_cap_exceeded',
      total_tokens: 0,
      user_id: ada,
      model: 'gpt-4.1',
      attribution: { properties: { feature: 'search' } },
    });
    expect(JSON.stringify(row)).not.toContain('secret prompt');

    const events = await admin(app(), 'GET', `/admin/auth-events?user=${encodeURIComponent(ada)}`);
    const capEvents = events
      .json()
      .events.filter((event: { code: string }) => event.code === 'user_token_cap_exceeded');
    // One auth event per user and code per minute, however often the client retries.
    expect(capEvents).toHaveLength(1);
    expect(capEvents[0].hint).toContain('monthlyTokens');

    const limits = await app().inject({ method: 'GET', url: '/v1/me/limits', headers: fixture.auth });
    expect(limits.statusCode).toBe(200);
    expect(limits.json().userCap).toMatchObject({ monthlyTokens: 50, tokensUsed: 80, status: 'over' });
    expect(await metricsText(app())).toMatch(/gw_rejections_total\{code="user_token_cap_exceeded"\} 2/);

    // The cap is per UTC month: the next month starts from zero.
    fixture.gateway.clock.set(Date.UTC(2026, 11, 1, 0, 0, 1));
    try {
      expect((await chat(app(), fixture.clientKey)).statusCode).toBe(200);
    } finally {
      fixture.gateway.clock.set(Date.UTC(2026, 10, 23, 12));
    }
  });

  it('answers 402 user_budget_exceeded once the USD budget is spent, and resets daily when asked', async () => {
    // gpt-4.1: 1000 in at $2/M + 1000 out at $8/M = $0.01 per call.
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 1_000, outputTokens: 1_000 } });
    await admin(app(), 'PATCH', `/admin/user-caps/${ada}`, { maxUsd: 0.02, reset: 'daily' });
    for (let call = 0; call < 2; call += 1) {
      expect((await chat(app(), fixture.clientKey)).statusCode).toBe(200);
      await metered(fixture.gateway);
    }
    const denied = await chat(app(), fixture.clientKey);
    expect(denied.statusCode).toBe(402);
    expect(denied.json().error.code).toBe('user_budget_exceeded');
    expect(denied.json().error.message).toContain('$0.02 of $0.02');
    const caps = (await admin(app(), 'GET', '/admin/user-caps')).json();
    // Switching to a daily cadence counted today's earlier calls too ($0.0004 from the previous test): reconciliation.
    expect(caps.budgetUsage[ada]).toBeCloseTo(0.0204, 10);
    expect(caps.caps[ada].status).toBe('over');

    fixture.gateway.clock.advance(86_400_000);
    try {
      expect((await chat(app(), fixture.clientKey)).statusCode).toBe(200);
    } finally {
      fixture.gateway.clock.set(Date.UTC(2026, 10, 23, 12));
    }
  });

  it('delivers each cap-approach alert once per threshold per period to the Slack-compatible webhook', async () => {
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 15, outputTokens: 15 } });
    const linus = 'linus@example.com';
    const { key } = await mintClientKey(app(), { user: linus, team: 'kernel' });
    const put = await admin(app(), 'PUT', '/admin/user-caps', {
      caps: { [linus]: { monthlyTokens: 100 } },
      alerts: { thresholdsPercent: [50, 100], webhookUrl: `${sink.url}/services/T1/B1/abc` },
    });
    expect(put.statusCode).toBe(200);
    // 30 tokens a call: 30, 60 (50% reached), 90, 120 (100% reached), then 402.
    for (let call = 0; call < 4; call += 1) {
      expect((await chat(app(), key)).statusCode).toBe(200);
      await metered(fixture.gateway);
    }
    expect((await chat(app(), key)).statusCode).toBe(402);
    await metered(fixture.gateway);
    const delivered = await sink.waitForRequests(2);
    expect(delivered.map((request) => request.url)).toEqual(['/services/T1/B1/abc', '/services/T1/B1/abc']);
    const texts = sink.bodies.map((body) => (body as { text: string }).text);
    expect(texts[0]).toContain(`${linus} has used 50% of their token cap (60 of 100 tokens)`);
    expect(texts[1]).toContain('100% of their token cap');
    expect(sink.bodies[1]).toMatchObject({
      event: 'user_cap.threshold_reached',
      user: linus,
      kind: 'tokens',
      thresholdPercent: 100,
    });
    // Metering awaits each alert's delivery, so after `metered` every alert the calls crossed has reached the sink.
    await metered(fixture.gateway);
    expect(sink.requests).toHaveLength(2);
  });
});
