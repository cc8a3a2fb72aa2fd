import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, MemoryCoord } from '@gw/platform';
import {
  startBillingSimulator,
  type BillingSimulatorHandle,
  createIsolatedPgDb,
  createMemoryPgliteDb,
  testDbUrl,
} from '@gw/testkit';
import { readConfig } from '../src/config.js';
import { adminHeaders, startTestGateway, type TestGateway } from './helpers.js';
import { billingEnv } from './billing-fixture.js';
import { startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

const canary = `canary-${Math.random().toString(36).slice(2)}`;

const chat = (fixture: InferenceFixture, content = 'hello') =>
  fixture.gateway.app.inject({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: fixture.auth,
    payload: { model: 'gpt-4o-mini', messages: [{ role: 'user', content }] },
  });

const lane = (gateway: TestGateway) => {
  const { lane: metering } = gateway.deps.entitlement;
  if (!metering) throw new Error('the gateway is not metered');
  return metering;
};

const settle = (gateway: TestGateway) => gateway.deps.spendWriter.drain();

describe('metering lane and entitlement', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function meteredFixture(
    options: { trustBilling?: boolean; leaseTtlMs?: number; before?: (billing: BillingSimulatorHandle) => void } = {},
  ) {
    const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
    const billing = await startBillingSimulator({
      now: () => clock.now(),
      ...(options.leaseTtlMs ? { leaseTtlMs: options.leaseTtlMs } : {}),
    });
    cleanups.push(() => billing.close());
    options.before?.(billing);
    const fixture = await startInferenceFixture({ env: billingEnv(billing, options), clock });
    cleanups.push(() => fixture.close());
    await lane(fixture.gateway).firstRound;
    return { clock, billing, fixture };
  }

  it('reports content-free usage window after window and serves on the lease billing signed', async () => {
    const { billing, fixture } = await meteredFixture();
    const { app } = fixture.gateway;
    expect((await app.inject({ method: 'GET', url: '/' })).json()).toEqual({ status: 'ready' });
    expect((await app.inject({ method: 'GET', url: '/admin/health', headers: adminHeaders })).json()).toMatchObject({
      leaseStatus: 'active',
      leaseSource: 'billing',
      leaseTrust: 'configured',
      leaseAcquire: 'ok',
    });

    expect((await chat(fixture, `say ${canary}`)).statusCode).toBe(200);
    expect((await chat(fixture)).statusCode).toBe(200);
    // A call admission refused (a cap, a rate limit) reached no model: the spend reports and billing do not count it.
    await fixture.gateway.deps.db.query(
      "INSERT INTO gw_spend (id, ts, endpoint, method, status, outcome, user_id) VALUES ('rejected-1', now(), '/v1/chat/completions', 'POST', 429, 'rejected', 'eve@example.com')",
    );
    await settle(fixture.gateway);
    const { rows } = await fixture.gateway.deps.db.query<{ prompt: number; completion: number }>(
      'SELECT sum(prompt_tokens)::int AS prompt, sum(completion_tokens)::int AS completion FROM gw_spend',
    );
    await lane(fixture.gateway).runOnce();

    expect(billing.reports).toHaveLength(2);
    const [first, second] = billing.reports;
    expect(second?.window.start).toBe(first?.window.end);
    expect(second).toMatchObject({
      deploymentId: billing.deploymentId,
      heartbeatTier: 'full',
      leaseTrust: 'configured',
      fleet: null,
      usage: {
        requests: 2,
        errors: 0,
        promptTokens: rows[0]?.prompt,
        completionTokens: rows[0]?.completion,
        activeUsers: 1,
        models: [expect.objectContaining({ provider: 'openai', model: 'gpt-4o-mini', requests: 2 })],
      },
    });
    expect(JSON.stringify(billing.reports)).not.toContain(canary);
    expect(JSON.stringify(billing.reports)).not.toContain('ada@example.com');

    const lastReport = (
      await app.inject({ method: 'GET', url: '/admin/metering/last-report', headers: adminHeaders })
    ).json();
    expect(lastReport).toMatchObject({
      metered: true,
      state: 'ok',
      heartbeatTier: 'full',
      lease: { status: 'active', trust: 'configured' },
      lastReport: { id: second?.reportId, state: 'accepted', report: second },
    });
    const audit = await app.inject({ method: 'GET', url: '/admin/v1/audit/metering?limit=5', headers: adminHeaders });
    expect(audit.statusCode).toBe(200);
    expect(audit.json().recent.map((report: { id: string }) => report.id)).toEqual([second?.reportId, first?.reportId]);
  });

  it('sends only totals on the aggregate tier and only liveness on the minimal tier', async () => {
    const { billing, fixture } = await meteredFixture();
    const { app } = fixture.gateway;
    await chat(fixture);
    await settle(fixture.gateway);
    await app.inject({
      method: 'PUT',
      url: '/admin/settings',
      headers: adminHeaders,
      payload: { heartbeatTier: 'aggregate' },
    });
    await lane(fixture.gateway).runOnce();
    expect(billing.reports.at(-1)?.usage).toMatchObject({ requests: 1 });
    expect(billing.reports.at(-1)?.usage).not.toHaveProperty('models');
    await app.inject({
      method: 'PUT',
      url: '/admin/settings',
      headers: adminHeaders,
      payload: { heartbeatTier: 'minimal' },
    });
    await lane(fixture.gateway).runOnce();
    expect(billing.reports.at(-1)).toMatchObject({ heartbeatTier: 'minimal', usage: null });
  });

  it('refuses /v1 calls with 403 while suspended and 402 once the lease runs out, in each envelope', async () => {
    const { clock, billing, fixture } = await meteredFixture();
    const { app } = fixture.gateway;
    billing.setAccount({ status: 'suspended' });
    await lane(fixture.gateway).runOnce();
    const suspended = await chat(fixture);
    expect(suspended.statusCode).toBe(403);
    expect(suspended.json()).toMatchObject({ error: { code: 'subscription_suspended' } });
    const messages = await app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: fixture.auth,
      payload: { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(messages.statusCode).toBe(403);
    expect(messages.json()).toMatchObject({
      type: 'error',
      error: { type: expect.any(String), message: expect.stringContaining('suspended') },
    });
    // A suspended lease is still a lease: the replica stays in rotation and answers the refusal itself.
    expect((await app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);

    billing.setAccount({ status: 'active', leaseTtlMs: 60_000 });
    await lane(fixture.gateway).runOnce();
    expect((await chat(fixture)).statusCode).toBe(200);
    clock.advance(61_000);
    const expired = await chat(fixture);
    expect(expired.statusCode).toBe(402);
    expect(expired.json()).toMatchObject({ error: { code: 'entitlement_expired' } });
    expect(fixture.openai.requests.filter((request) => request.path.endsWith('/chat/completions'))).toHaveLength(1);
  });

  it('is not ready before the first lease, and resends an unanswered report with the same id until billing takes it', async () => {
    // Billing is down for the report and for the lease refresh that follows a failed report.
    const { billing, fixture } = await meteredFixture({
      before: (sim) => {
        sim.failNext(1, 503, '/v1/meter');
        sim.failNext(1, 503, '/v1/entitlement');
      },
    });
    const { app } = fixture.gateway;
    expect((await app.inject({ method: 'GET', url: '/' })).json()).toEqual({ status: 'no_entitlement' });
    const failing = (
      await app.inject({ method: 'GET', url: '/admin/metering/last-report', headers: adminHeaders })
    ).json();
    expect(failing).toMatchObject({
      state: 'failing',
      lastError: { code: 'service_unavailable', httpStatus: 503 },
      lastReport: null,
      recent: [{ state: 'failed', httpStatus: 503 }],
    });

    await lane(fixture.gateway).runOnce();
    expect(billing.reports).toHaveLength(1);
    expect(billing.reports[0]?.reportId).toBe(failing.recent[0].id);
    expect((await app.inject({ method: 'GET', url: '/' })).json()).toEqual({ status: 'ready' });
  });

  it('gets a first lease without usage when the first report fails, so a new deployment becomes ready anyway', async () => {
    const { billing, fixture } = await meteredFixture({ before: (sim) => sim.failNext(1, 503, '/v1/meter') });
    expect((await fixture.gateway.app.inject({ method: 'GET', url: '/' })).json()).toEqual({ status: 'ready' });
    expect(billing.reports).toHaveLength(0);
    expect(billing.requests.map((request) => `${request.path} ${request.status}`)).toEqual([
      '/v1/meter 503',
      '/v1/entitlement 200',
    ]);
  });

  it('refreshes the lease without usage (GET /v1/entitlement) while billing refuses reports, before the held one runs out', async () => {
    const hour = 60 * 60_000;
    const { billing, fixture, clock } = await meteredFixture({ leaseTtlMs: 8 * hour });
    const held = () => fixture.gateway.deps.entitlement.gate?.verdict().payload?.expiresAt;
    const first = held();
    // Billing refuses every report from now on (a report it cannot read); the lease still has hours left.
    billing.failNext(100, 400, '/v1/meter');
    await lane(fixture.gateway).runOnce();
    expect(billing.requests.filter((request) => request.path === '/v1/entitlement')).toHaveLength(0);
    clock.advance(3 * hour);
    await lane(fixture.gateway).runOnce();
    expect(billing.requests.filter((request) => request.path === '/v1/entitlement')).toEqual([
      expect.objectContaining({ status: 200 }),
    ]);
    expect(Date.parse(held() as string)).toBeGreaterThan(Date.parse(first as string));
    // Stored for every replica, and not asked again while the fresh lease has hours left.
    expect((await fixture.gateway.deps.db.query('SELECT 1 FROM gw_entitlement_lease')).rows).toHaveLength(1);
    await lane(fixture.gateway).runOnce();
    expect(billing.requests.filter((request) => request.path === '/v1/entitlement')).toHaveLength(1);
    expect((await chat(fixture)).statusCode).toBe(200);
    clock.advance(7 * hour);
    expect((await chat(fixture)).statusCode).toBe(200);
    expect(lane(fixture.gateway).state).toBe('failing');
  });

  it('does not trust a lease signed by a key outside the pinned set', async () => {
    const { billing, fixture } = await meteredFixture({ trustBilling: false });
    expect(billing.reports).toHaveLength(1);
    expect(
      (await fixture.gateway.app.inject({ method: 'GET', url: '/admin/health', headers: adminHeaders })).json(),
    ).toMatchObject({ leaseStatus: 'none', leaseTrust: 'pinned', leaseAcquire: 'failing' });
    expect(
      (
        await fixture.gateway.app.inject({ method: 'GET', url: '/admin/metering/last-report', headers: adminHeaders })
      ).json(),
    ).toMatchObject({ lastError: { code: 'unverifiable_lease' } });
    expect((await fixture.gateway.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(503);
  });

  it('reports from one replica per interval; the others serve on the lease it stored', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
    const billing = await startBillingSimulator({ now: () => clock.now() });
    cleanups.push(() => billing.close());
    const store = await createIsolatedPgDb(testDbUrl(process.env));
    cleanups.push(() => store.dispose());
    const coord = new MemoryCoord({ clock });
    const replicas = [
      await startTestGateway({ db: store.db, coord, clock, env: billingEnv(billing) }),
      await startTestGateway({ db: store.db, coord, clock, env: billingEnv(billing) }),
    ];
    for (const replica of replicas) cleanups.push(() => replica.close());
    await Promise.all(replicas.map((replica) => lane(replica).firstRound));
    await Promise.all(replicas.map((replica) => lane(replica).runOnce()));
    // Two rounds each, and only the claim holder's two reached billing.
    expect(billing.reports).toHaveLength(2);
    expect(replicas.map((replica) => lane(replica).state).sort()).toEqual(['ok', 'standby']);
    for (const replica of replicas) await replica.deps.entitlement.gate?.refresh();
    const health = await Promise.all(
      replicas.map(async (replica) =>
        (await replica.app.inject({ method: 'GET', url: '/admin/health', headers: adminHeaders })).json(),
      ),
    );
    expect(health.map((report) => report.leaseStatus)).toEqual(['active', 'active']);
    expect(health.map((report) => report.leaseSource).sort()).toEqual(['billing', 'store']);
  });

  it('reports and stores the lease on the embedded store too', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
    const billing = await startBillingSimulator({ now: () => clock.now() });
    cleanups.push(() => billing.close());
    const store = await createMemoryPgliteDb();
    cleanups.push(() => store.dispose());
    const gateway = await startTestGateway({ db: store.db, clock, env: billingEnv(billing) });
    cleanups.push(() => gateway.close());
    await lane(gateway).firstRound;
    await lane(gateway).runOnce();
    expect(billing.reports).toHaveLength(2);
    expect(billing.reports[1]?.window.start).toBe(billing.reports[0]?.window.end);
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/health', headers: adminHeaders })).json(),
    ).toMatchObject({ leaseStatus: 'active', leaseAcquire: 'ok' });
  });

  it('needs the deployment id and bearer once billing is configured', () => {
    expect(() => readConfig({ GW_BILLING_URL: 'https://billing.example.com' })).toThrow(
      /GW_DEPLOYMENT_TOKEN[\s\S]*GW_DEPLOYMENT_ID|GW_DEPLOYMENT_ID[\s\S]*GW_DEPLOYMENT_TOKEN/,
    );
    expect(() =>
      readConfig({
        GW_BILLING_URL: 'https://billing.example.com',
        GW_DEPLOYMENT_ID: 'dep_1',
        GW_DEPLOYMENT_TOKEN: 'not-a-deployment-token-000',
      }),
    ).toThrow(/adt_/);
    expect(() => readConfig({ GW_LEASE_VERIFY_KEY: `gw-billing-2026-1:${'A'.repeat(43)}` })).toThrow(
      /GW_LEASE_VERIFY_KEY/,
    );
  });
});
