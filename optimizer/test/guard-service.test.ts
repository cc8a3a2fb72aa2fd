import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { settingsResponseSchema } from '@gw/contracts';
import { runPipeline, strategyKinds } from '../src/pipeline/index.js';
import { handlesOf, optimize, turn } from './guard-support.js';
import { adminAuth, auth, testApp, type TestApp } from './support/test-app.js';

// The regression guard through the service, with the real pipeline and a fake clock.
let store: TestDb;
beforeAll(async () => {
  store = await createMemoryPgliteDb();
});
afterAll(async () => {
  await store.dispose();
});

const minute = 60_000;
const small = { minFired: 2, minRegrets: 2, lowTrafficMinFired: 1 };

async function guardedApp(thresholds: Record<string, number> = small, enabled = true): Promise<TestApp> {
  const harness = await testApp({ db: store.db, runPipeline, strategyKinds });
  const put = await harness.app.inject({
    method: 'PUT',
    url: '/admin/optimizer/settings',
    headers: adminAuth,
    payload: { guard: { enabled, thresholds } },
  });
  expect(put.statusCode).toBe(200);
  return harness;
}

async function settings(harness: TestApp) {
  return settingsResponseSchema.parse(
    (await harness.app.inject({ method: 'GET', url: '/admin/optimizer/settings', headers: adminAuth })).json(),
  );
}

async function lane(harness: TestApp, kind: string) {
  return (await settings(harness)).guard.strategies.find((entry) => entry.kind === kind);
}

function retrieve(harness: TestApp, handle: string, metadata?: Record<string, string>) {
  return harness.app.inject({
    method: 'POST',
    url: '/v1/retrieve',
    headers: auth,
    payload: { handle, ...(metadata ? { metadata } : {}) },
  });
}

/** Two sessions whose elided originals the model fetched back: enough regret to open `test_log_failures` at small thresholds. */
async function regretTwice(harness: TestApp): Promise<void> {
  for (const session of ['a', 'b']) {
    const response = (
      await optimize(harness, {
        endpoint: '/v1/chat/completions',
        request: turn(2, undefined, session === 'a' ? 0 : 100),
        metadata: { user: 'ada', gatewaySessionId: session },
      })
    ).json();
    const [handle] = handlesOf(response.request);
    expect((await retrieve(harness, handle ?? '')).statusCode).toBe(200);
  }
}

/** Ada's two sessions each elide an original, fetched back with this retrieve metadata and answered `status`. */
async function retrieveEachSession(harness: TestApp, metadata: Record<string, string>, status: number): Promise<void> {
  for (const session of ['a', 'b']) {
    const response = (
      await optimize(harness, {
        endpoint: '/v1/chat/completions',
        request: turn(2, undefined, session === 'a' ? 0 : 100),
        metadata: { user: 'ada', gatewaySessionId: session },
      })
    ).json();
    expect((await retrieve(harness, handlesOf(response.request)[0] ?? '', metadata)).statusCode).toBe(status);
  }
}

describe('regression guard in /v1/optimize', () => {
  it('suppresses a strategy whose elisions the model keeps retrieving, with a guard_suppressed decision', async () => {
    const harness = await guardedApp();
    await regretTwice(harness);
    expect(await lane(harness, 'test_log_failures')).toMatchObject({
      tenant: 'default',
      state: 'open',
      regretRate: 1,
      reason: 'window',
    });
    const response = (
      await optimize(harness, {
        endpoint: '/v1/chat/completions',
        request: turn(2, undefined, 200),
        metadata: { user: 'ada', gatewaySessionId: 'c' },
      })
    ).json();
    expect(response.suppressedKinds).toContainEqual({ kind: 'test_log_failures', reason: 'regret_guard' });
    expect(response.decisions).toContainEqual({
      kind: 'guard_suppressed',
      summary: 'regression guard held back test_log_failures (open)',
      estimatedTokensSaved: 0,
      estimatedSavingsUsd: 0,
    });
    expect(response.decisions.map((decision: { kind: string }) => decision.kind)).not.toContain('test_log_failures');
    const health = (await harness.app.inject({ method: 'GET', url: '/health' })).json();
    expect(health.guard).toEqual({ enabled: true, open: 1, halfOpen: 0, closed: expect.any(Number) });
    const metrics = (await harness.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('gw_optimizer_guard_regrets_total{signal="retrieve",kind="test_log_failures"} 2');
    expect(metrics).toContain('gw_optimizer_guard_transitions_total{kind="test_log_failures",to="open"} 1');
  });

  it('turns half-open after the cool-off and answers identical requests identically while probing', async () => {
    const harness = await guardedApp();
    await regretTwice(harness);
    harness.clock.advance(10 * minute);
    expect((await lane(harness, 'test_log_failures'))?.state).toBe('half_open');
    const body = {
      endpoint: '/v1/chat/completions',
      request: turn(2, undefined, 300),
      metadata: { user: 'ada', gatewaySessionId: 'd' },
    };
    expect((await optimize(harness, body)).body).toBe((await optimize(harness, body)).body);
  });

  it('never counts automated retrieves that set metadata.source', async () => {
    const harness = await guardedApp();
    await retrieveEachSession(harness, { source: 'console' }, 200);
    expect(await lane(harness, 'test_log_failures')).toMatchObject({
      state: 'closed',
      fired: 2,
      regrets: 0,
      regretRate: 0,
    });
  });

  it("never counts another caller's refused retrieve as a regret", async () => {
    const harness = await guardedApp();
    await retrieveEachSession(harness, { user: 'bob' }, 404);
    expect(await lane(harness, 'test_log_failures')).toMatchObject({
      state: 'closed',
      fired: 2,
      regrets: 0,
      regretRate: 0,
    });
  });

  it('charges a tool re-run with the same arguments after its result was replaced', async () => {
    const harness = await guardedApp({ ...small, minRegrets: 5 });
    const same = () => 'npm test';
    const metadata = { user: 'ada', gatewaySessionId: 'rerun' };
    expect(
      handlesOf(
        (await optimize(harness, { endpoint: '/v1/chat/completions', request: turn(2, same), metadata })).json()
          .request,
      ),
    ).toHaveLength(1);
    await optimize(harness, { endpoint: '/v1/chat/completions', request: turn(3, same), metadata });
    expect((await lane(harness, 'test_log_failures'))?.regrets).toBe(1);
    // New arguments are new work, not a regret.
    const other = { user: 'ada', gatewaySessionId: 'fresh-args' };
    await optimize(harness, { endpoint: '/v1/chat/completions', request: turn(2), metadata: other });
    await optimize(harness, { endpoint: '/v1/chat/completions', request: turn(3), metadata: other });
    expect((await lane(harness, 'test_log_failures'))?.regrets).toBe(1);
  });

  it('charges the same request retried in session after a window crop', async () => {
    const harness = await guardedApp({ ...small, minRegrets: 5 });
    const body = {
      endpoint: '/v1/chat/completions',
      request: turn(4),
      enabledKinds: ['window_budget'],
      metadata: { user: 'ada', gatewaySessionId: 'crop', modelContextTokens: 20_000 },
    };
    const first = (await optimize(harness, body)).json();
    expect(first.decisions.map((decision: { kind: string }) => decision.kind)).toEqual(['window_budget']);
    expect((await lane(harness, 'window_budget'))?.regrets).toBe(0);
    harness.clock.advance(5_000);
    await optimize(harness, body);
    expect((await lane(harness, 'window_budget'))?.regrets).toBe(1);
    const metrics = (await harness.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('gw_optimizer_guard_regrets_total{signal="retry_after_crop",kind="window_budget"} 1');
  });

  it('holds nothing back when switched off, while still counting', async () => {
    const harness = await guardedApp(small, false);
    await regretTwice(harness);
    expect((await lane(harness, 'test_log_failures'))?.state).toBe('open');
    const response = (
      await optimize(harness, {
        endpoint: '/v1/chat/completions',
        request: turn(2, undefined, 200),
        metadata: { user: 'ada', gatewaySessionId: 'c' },
      })
    ).json();
    expect(response.suppressedKinds).toEqual([]);
    expect(response.decisions.map((decision: { kind: string }) => decision.kind)).toContain('test_log_failures');
  });
});

describe('guard settings and wiring', () => {
  it('takes thresholds through the settings API and reports those in force, defaults filled in', async () => {
    const harness = await guardedApp({ minFired: 80, coolOffMinutes: 5 });
    const view = await settings(harness);
    expect(view.config.guard).toEqual({ enabled: true, thresholds: { minFired: 80, coolOffMinutes: 5 } });
    expect(view.guard.thresholds).toMatchObject({
      windowMinutes: 30,
      buckets: 30,
      minFired: 80,
      minRegrets: 10,
      regretRate: 0.2,
      lowTrafficMinFired: 20,
      lowTrafficPValue: 0.01,
      coolOffMinutes: 5,
      coolOffMaxMultiplier: 4,
      probeOneIn: 10,
      restoreProbes: 20,
    });
    const bad = async (guard: unknown) =>
      (
        await harness.app.inject({
          method: 'PUT',
          url: '/admin/optimizer/settings',
          headers: adminAuth,
          payload: { guard },
        })
      ).statusCode;
    expect(await bad({ enabled: true, thresholds: { minFire: 3 } })).toBe(400);
    expect(await bad({ enabled: true, minFired: 3 })).toBe(400);
    expect(await bad({ enabled: true, thresholds: { regretRate: 1.5 } })).toBe(400);
  });

  it('prices decisions at the model input price and keeps identical requests byte-identical', async () => {
    const harness = await guardedApp();
    const body = {
      endpoint: '/v1/chat/completions',
      request: turn(2),
      metadata: { user: 'ada', gatewaySessionId: 'price' },
    };
    const first = await optimize(harness, body);
    const second = await optimize(harness, body);
    expect(second.body).toBe(first.body);
    const fold = first.json().decisions.find((decision: { kind: string }) => decision.kind === 'test_log_failures');
    // gpt-4o lists input at $2.50 per million tokens.
    expect(fold.estimatedSavingsUsd).toBe(Math.round(fold.estimatedTokensSaved * 2.5e-6 * 1e8) / 1e8);
    expect(Object.values(first.json().strategyTimingsMs).every((milliseconds) => milliseconds === 0)).toBe(true);
  });
});
