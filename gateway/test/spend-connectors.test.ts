import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startAnthropicUsageSimulator,
  startOpenAiUsageSimulator,
  type UsageReportSimulatorHandle,
  type VendorUsageDay,
} from '@gw/testkit';
import { adminHeaders, gatewayPerTest } from './helpers.js';

const openAiKey = 'sk-admin-openai-0123456789-wxyz';
const anthropicKey = 'sk-ant-admin01-0123456789-abcd';
const openAiDays: VendorUsageDay[] = [
  { day: '2026-10-20', model: 'gpt-4o-mini', requests: 3, inputTokens: 300, outputTokens: 100, costUsd: 0.5 },
  {
    day: '2026-11-20',
    model: 'gpt-4o',
    requests: 10,
    inputTokens: 1000,
    outputTokens: 500,
    cachedInputTokens: 200,
    costUsd: 2,
  },
  { day: '2026-11-21', model: 'gpt-4o', requests: 5, inputTokens: 400, outputTokens: 200, costUsd: 1 },
];
const anthropicDays: VendorUsageDay[] = [
  {
    day: '2026-11-21',
    model: 'claude-sonnet-4',
    requests: 4,
    inputTokens: 2000,
    outputTokens: 800,
    cachedInputTokens: 500,
    costUsd: 3,
  },
];

describe('spend connectors: the providers’ own usage reports beside gw’s spend', () => {
  const gateway = gatewayPerTest();
  let openAi: UsageReportSimulatorHandle;
  let anthropic: UsageReportSimulatorHandle;

  beforeEach(async () => {
    openAi = await startOpenAiUsageSimulator({ adminKey: openAiKey, days: openAiDays });
    anthropic = await startAnthropicUsageSimulator({ adminKey: anthropicKey, days: anthropicDays });
  });
  afterEach(async () => {
    await openAi.close();
    await anthropic.close();
  });

  const put = (payload: object, url = '/admin/v1/providers/connectors') =>
    gateway.app.inject({ method: 'PUT', url, headers: adminHeaders, payload });
  const sync = (payload?: object) =>
    gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/providers/connectors/sync',
      headers: adminHeaders,
      ...(payload ? { payload } : {}),
    });
  const stored = async () =>
    (
      await gateway.deps.db.query<{ vendor: string; day: string; model: string; cost: number }>(
        "SELECT vendor, to_char(day, 'YYYY-MM-DD') AS day, model, cost_usd::float8 AS cost FROM gw_external_spend ORDER BY 1, 2, 3",
      )
    ).rows;
  const configureBoth = async () => {
    const response = await put({
      openai: { adminKey: openAiKey, baseUrl: openAi.url },
      anthropic: { adminKey: anthropicKey, baseUrl: anthropic.url },
    });
    expect(response.statusCode).toBe(200);
    return response;
  };

  it('keeps admin keys write-only and sealed; PUT sets, rotates or removes each vendor', async () => {
    const configured = await put({ openai: { adminKey: openAiKey, baseUrl: openAi.url } }, '/admin/spend-connectors');
    expect(configured.statusCode).toBe(200);
    expect(configured.json().connectors).toEqual([
      {
        vendor: 'openai',
        configured: true,
        keyHint: '…wxyz',
        baseUrl: openAi.url,
        updatedAt: new Date(gateway.clock.now()).toISOString(),
        updatedBy: 'admin-token',
        lastSync: null,
      },
      {
        vendor: 'anthropic',
        configured: false,
        keyHint: null,
        baseUrl: 'https://api.anthropic.com',
        updatedAt: null,
        updatedBy: null,
        lastSync: null,
      },
    ]);
    expect(configured.body).not.toContain(openAiKey);
    const rows = JSON.stringify((await gateway.deps.db.query('SELECT * FROM gw_spend_connectors')).rows);
    expect(rows).not.toContain(openAiKey);
    expect(rows).not.toContain(openAiKey.slice(4, -4));

    // Omitted vendors are unchanged; a base URL alone keeps the key.
    await put({ anthropic: { adminKey: anthropicKey, baseUrl: anthropic.url } });
    expect(
      (await put({ openai: { baseUrl: openAi.url } }))
        .json()
        .connectors.map((view: { keyHint: string | null }) => view.keyHint),
    ).toEqual(['…wxyz', '…abcd']);
    for (const url of ['/admin/spend-connectors', '/admin/spend/connectors', '/admin/v1/providers/connectors']) {
      const read = await gateway.app.inject({ method: 'GET', url, headers: adminHeaders });
      expect(read.statusCode, url).toBe(200);
      expect(read.body).not.toContain(anthropicKey);
    }
    // null and {} both remove.
    expect(
      (await put({ openai: null, anthropic: {} }))
        .json()
        .connectors.map((view: { configured: boolean }) => view.configured),
    ).toEqual([false, false]);
    expect((await gateway.deps.db.query('SELECT count(*)::int AS n FROM gw_spend_connectors')).rows[0]).toEqual({
      n: 0,
    });

    const audit = JSON.stringify((await gateway.deps.db.query('SELECT * FROM gw_audit_events')).rows);
    expect(audit).toContain('spendConnectors.put');
    expect(audit).not.toContain(openAiKey);
    expect(audit).not.toContain(anthropicKey);
  });

  it('refuses bad connector bodies with nothing changed', async () => {
    for (const payload of [
      { openai: { adminKey: 'short' } },
      { mistral: { adminKey: openAiKey } },
      { openai: { adminKey: openAiKey, region: 'eu' } },
    ]) {
      const response = await put(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
      expect(response.body).not.toContain(openAiKey);
    }
    // Every outbound URL an administrator sets passes the SSRF guard.
    const badUrl = await put({ openai: { adminKey: openAiKey, baseUrl: 'ftp://example.com' } });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json().error).toMatchObject({
      code: 'invalid_base_url',
      message: expect.stringContaining('http or https'),
    });
    expect((await gateway.deps.db.query('SELECT count(*)::int AS n FROM gw_spend_connectors')).rows[0]).toEqual({
      n: 0,
    });
  });

  it('pulls both vendors’ paginated usage and cost reports and stores daily per-model totals', async () => {
    expect((await sync()).json().connectors).toEqual([
      { vendor: 'openai', outcome: 'skipped', reason: 'no admin key configured' },
      { vendor: 'anthropic', outcome: 'skipped', reason: 'no admin key configured' },
    ]);
    await configureBoth();
    const synced = await sync({ days: 40 });
    expect(synced.statusCode).toBe(200);
    expect(synced.json().connectors).toEqual([
      { vendor: 'openai', outcome: 'synced', from: '2026-10-15', to: '2026-11-23', rows: 3 },
      { vendor: 'anthropic', outcome: 'synced', from: '2026-10-15', to: '2026-11-23', rows: 1 },
    ]);
    expect(await stored()).toEqual([
      { vendor: 'anthropic', day: '2026-11-21', model: 'claude-sonnet-4', cost: 3 },
      { vendor: 'openai', day: '2026-10-20', model: 'gpt-4o-mini', cost: 0.5 },
      { vendor: 'openai', day: '2026-11-20', model: 'gpt-4o', cost: 2 },
      { vendor: 'openai', day: '2026-11-21', model: 'gpt-4o', cost: 1 },
    ]);

    // 40 daily buckets are two pages of 31 for each report; the second page follows next_page.
    expect(
      openAi.requests.map((request) => [request.path, request.query.page === undefined ? 'first' : 'next']),
    ).toEqual([
      ['/v1/organization/usage/completions', 'first'],
      ['/v1/organization/usage/completions', 'next'],
      ['/v1/organization/costs', 'first'],
      ['/v1/organization/costs', 'next'],
    ]);
    expect(openAi.requests[0]?.query).toMatchObject({
      start_time: String(Date.UTC(2026, 9, 15) / 1000),
      end_time: String(Date.UTC(2026, 10, 24) / 1000),
      bucket_width: '1d',
      group_by: 'model',
      limit: '31',
    });
    expect(openAi.requests[2]?.query).toMatchObject({ group_by: 'line_item' });
    expect(anthropic.requests.map((request) => request.path)).toEqual([
      '/v1/organizations/usage_report/messages',
      '/v1/organizations/usage_report/messages',
      '/v1/organizations/cost_report',
      '/v1/organizations/cost_report',
    ]);
    expect(anthropic.requests[0]?.query).toMatchObject({
      starting_at: '2026-10-15T00:00:00Z',
      ending_at: '2026-11-24T00:00:00Z',
      'group_by[]': 'model',
    });
    expect(anthropic.requests[0]?.headers['anthropic-version']).toBe('2023-06-01');

    const views = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/providers/connectors', headers: adminHeaders })
    ).json().connectors;
    expect(views[0].lastSync).toEqual({
      at: new Date(gateway.clock.now()).toISOString(),
      outcome: 'synced',
      rows: 3,
      error: null,
    });

    // Two syncs at once take turns: both succeed and the totals are stored once.
    const [first, second] = await Promise.all([sync({ days: 40 }), sync({ days: 40 })]);
    expect([first?.json().connectors[0].outcome, second?.json().connectors[0].outcome]).toEqual(['synced', 'synced']);
    expect(await stored()).toHaveLength(4);

    // A later sync of a shorter window replaces only that window's days.
    openAi.setDays(openAiDays.map((day) => (day.day === '2026-11-21' ? { ...day, costUsd: 1.5 } : day)));
    await sync({ days: 7 });
    expect((await stored()).filter((row) => row.vendor === 'openai').map((row) => row.cost)).toEqual([0.5, 2, 1.5]);
  });

  it('shows vendor spend beside gw’s spend records per day and model, with the difference', async () => {
    await gateway.deps.db.query(
      "INSERT INTO gw_providers (slug, type, updated_by, updated_at) VALUES ('openai-main', 'openai', 'test', now()), ('claude', 'anthropic', 'test', now()), ('azure', 'azure-openai', 'test', now())",
    );
    const spend = (id: string, ts: string, provider: string, model: string, cost: number, billingMode = 'api-key') =>
      gateway.deps.db.query(
        "INSERT INTO gw_spend (id, ts, endpoint, method, status, outcome, provider, model, prompt_tokens, completion_tokens, cost_usd, billing_mode) VALUES ($1, $2, '/v1/chat/completions', 'POST', 200, 'success', $3, $4, 100, 50, $5, $6)",
        [id, ts, provider, model, cost, billingMode],
      );
    await spend('s1', '2026-11-20T09:00:00Z', 'openai-main', 'gpt-4o', 0.75);
    await spend('s2', '2026-11-20T23:59:00Z', 'openai-main', 'gpt-4o', 0.5);
    await spend('s3', '2026-11-21T10:00:00Z', 'claude', 'claude-sonnet-4', 3);
    await spend('s4', '2026-11-22T10:00:00Z', 'openai-main', 'gpt-4o', 0.1);
    // Not on the organisation's report: another vendor's cloud, and a seat billed on its own plan.
    await spend('s5', '2026-11-22T10:00:00Z', 'azure', 'gpt-4o', 9);
    await spend('s6', '2026-11-22T10:00:00Z', 'claude', 'claude-sonnet-4', 9, 'subscription');
    await configureBoth();
    await sync();

    for (const url of ['/admin/v1/spend/external?days=7', '/admin/spend-connectors/usage?days=7']) {
      const response = await gateway.app.inject({ method: 'GET', url, headers: adminHeaders });
      expect(response.statusCode, url).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ days: 7, from: '2026-11-17', to: '2026-11-23' });
      expect(body.vendors).toEqual([
        {
          vendor: 'openai',
          configured: true,
          lastSyncAt: new Date(gateway.clock.now()).toISOString(),
          vendorUsd: 3,
          gatewayUsd: 1.35,
          differenceUsd: 1.65,
        },
        {
          vendor: 'anthropic',
          configured: true,
          lastSyncAt: new Date(gateway.clock.now()).toISOString(),
          vendorUsd: 3,
          gatewayUsd: 3,
          differenceUsd: 0,
        },
      ]);
      expect(body.rows).toEqual([
        {
          day: '2026-11-20',
          vendor: 'openai',
          model: 'gpt-4o',
          vendorReport: { requests: 10, inputTokens: 1000, outputTokens: 500, costUsd: 2 },
          gateway: { requests: 2, inputTokens: 200, outputTokens: 100, costUsd: 1.25 },
          differenceUsd: 0.75,
        },
        {
          day: '2026-11-21',
          vendor: 'anthropic',
          model: 'claude-sonnet-4',
          vendorReport: { requests: null, inputTokens: 2000, outputTokens: 800, costUsd: 3 },
          gateway: { requests: 1, inputTokens: 100, outputTokens: 50, costUsd: 3 },
          differenceUsd: 0,
        },
        {
          day: '2026-11-21',
          vendor: 'openai',
          model: 'gpt-4o',
          vendorReport: { requests: 5, inputTokens: 400, outputTokens: 200, costUsd: 1 },
          gateway: null,
          differenceUsd: 1,
        },
        {
          day: '2026-11-22',
          vendor: 'openai',
          model: 'gpt-4o',
          vendorReport: null,
          gateway: { requests: 1, inputTokens: 100, outputTokens: 50, costUsd: 0.1 },
          differenceUsd: -0.1,
        },
      ]);
    }
    const defaults = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/spend/external', headers: adminHeaders })
    ).json();
    expect(defaults).toMatchObject({ days: 30, from: '2026-10-25', to: '2026-11-23' });
    for (const days of ['0', '91', 'many']) {
      const refused = await gateway.app.inject({
        method: 'GET',
        url: `/admin/v1/spend/external?days=${days}`,
        headers: adminHeaders,
      });
      expect(refused.statusCode, days).toBe(400);
      expect(refused.json().error.code).toBe('invalid_request');
    }
    expect((await sync({ days: 91 })).statusCode).toBe(400);
  });

  it('honours a short retry-after, then reports a vendor that keeps answering 429, storing nothing', async () => {
    await configureBoth();
    openAi.rateLimit(2, 0);
    const recovered = (await sync()).json().connectors;
    expect(recovered[0]).toMatchObject({ vendor: 'openai', outcome: 'synced', rows: 2 });
    expect(openAi.requests.filter((request) => request.path === '/v1/organization/usage/completions')).toHaveLength(3);
    const before = await stored();

    // Usage reads fine, then the cost report is throttled with a wait beyond the bound: the usage already read is dropped.
    openAi.setDays([]);
    openAi.rateLimit(1, 3600, '/v1/organization/costs');
    const limited = (await sync()).json().connectors;
    expect(limited[0]).toEqual({
      vendor: 'openai',
      outcome: 'failed',
      from: '2026-10-25',
      to: '2026-11-23',
      error: {
        code: 'rate_limited',
        message:
          'OpenAI rate-limited the usage report (retry-after 3600s after 1 attempt); nothing was stored, sync again later.',
      },
    });
    expect(limited[1]).toMatchObject({ vendor: 'anthropic', outcome: 'synced' });
    expect(await stored()).toEqual(before);

    openAi.setDays(openAiDays);
    anthropic.rateLimit(4, 0);
    const exhausted = (await sync()).json().connectors;
    expect(exhausted[1]).toMatchObject({ vendor: 'anthropic', outcome: 'failed', error: { code: 'rate_limited' } });
    expect(await stored()).toEqual(before);
    const view = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/providers/connectors', headers: adminHeaders })
    ).json().connectors[1];
    expect(view.lastSync).toMatchObject({
      outcome: 'failed',
      rows: null,
      error: expect.stringContaining('rate-limited'),
    });
  });

  it('bounds a vendor that paginates forever and reports rejected credentials, storing nothing', async () => {
    await configureBoth();
    await sync();
    const before = await stored();
    openAi.setDays([]);
    openAi.paginateForever(true);
    const forever = (await sync()).json().connectors[0];
    expect(forever).toMatchObject({
      vendor: 'openai',
      outcome: 'failed',
      error: {
        code: 'pagination_unbounded',
        message: 'OpenAI kept paginating past 40 pages; nothing was stored. Sync fewer days or retry later.',
      },
    });
    expect(openAi.requests.length).toBe(2 + 40);
    expect(await stored()).toEqual(before);

    await put({ anthropic: { adminKey: 'sk-ant-admin01-revoked-key-0000' } });
    const rejected = (await sync()).json().connectors[1];
    expect(rejected).toMatchObject({
      vendor: 'anthropic',
      outcome: 'failed',
      error: {
        code: 'credentials_rejected',
        message: 'Anthropic refused the admin key (HTTP 401); set an organisation admin key with usage access.',
      },
    });
    expect(JSON.stringify(rejected)).not.toContain('sk-ant-admin01');
    expect(await stored()).toEqual(before);

    await put({ openai: { baseUrl: 'http://127.0.0.1:9' } });
    expect((await sync()).json().connectors[0]).toMatchObject({
      outcome: 'failed',
      error: { code: 'vendor_unreachable' },
    });
  });
});
