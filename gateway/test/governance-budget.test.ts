import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCoord } from '@gw/platform';
import { bucketOf, reservationKey } from '../src/governance/reservations.js';
import { mintClientKey, mintServiceKey } from './helpers.js';
import { spendRows, type InferenceFixture } from './inference-helpers.js';
import { admin, answerAlways, chat, metered, metricsText, pool, startGovernanceFixture } from './governance-fixture.js';

/** A Coord whose counters can be cut off, standing in for a Redis outage. */
class FlakyCoord extends MemoryCoord {
  countersDown = false;
  override async getCounters(keys: readonly string[]): Promise<number[]> {
    if (this.countersDown) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    return super.getCounters(keys);
  }
}

const successCost = (rows: Array<Record<string, unknown>>, keyId: string) =>
  rows
    .filter((row) => row.key_id === keyId && row.outcome === 'success')
    .reduce((sum, row) => sum + Number(row.cost_usd), 0);

describe('service-key budgets and strict mode', () => {
  let fixture: InferenceFixture;
  let coord: FlakyCoord;
  let stopAnswering: () => void = () => undefined;
  beforeAll(async () => {
    coord = new FlakyCoord();
    fixture = await startGovernanceFixture({ coord });
  });
  afterAll(async () => {
    await fixture.close();
  });
  afterEach(() => {
    stopAnswering();
    fixture.openai.reset();
  });
  const app = () => fixture.gateway.app;

  it('bounds the overshoot of 50 requests by those in flight, then answers 402 service_key_budget_exceeded', async () => {
    // $0.01 a call (gpt-4.1, 1000 in and 1000 out); a $0.10 budget fits 10; at most 10 calls in flight.
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 1_000, outputTokens: 1_000 }, latencyMs: 20 });
    const { key, record } = await mintServiceKey(app(), { name: 'nightly-batch', team: 'data', monthlyBudgetUsd: 0.1 });
    const responses = await pool(50, 10, () => chat(app(), key));
    await metered(fixture.gateway);
    const ok = responses.filter((response) => response.statusCode === 200).length;
    const denied = responses.filter((response) => response.statusCode === 402);
    expect(ok + denied.length).toBe(50);
    expect(ok).toBeGreaterThanOrEqual(10);
    expect(ok).toBeLessThanOrEqual(10 + 10);
    expect(new Set(denied.map((response) => response.json().error.code))).toEqual(
      new Set(['service_key_budget_exceeded']),
    );
    expect(fixture.openai.requests).toHaveLength(ok);

    const next = await chat(app(), key);
    expect(next.statusCode).toBe(402);
    expect(next.headers['x-should-retry']).toBe('false');
    const message: string = next.json().error.message;
    expect(message).toContain('Service key "nightly-batch"');
    expect(message).toMatch(/raise .*monthlyBudgetUsd, or wait for the next UTC month \(2026-12-01T00:00:00Z\)/);

    const rows = await spendRows(fixture.gateway);
    expect(successCost(rows, record.id)).toBeCloseTo(ok * 0.01, 10);
    expect(await metricsText(app())).toContain(
      `gw_budget_remaining_usd{key_id="${record.id}"} ${Math.round((0.1 - ok * 0.01) * 1e6) / 1e6}`,
    );
    const usage = await app().inject({
      method: 'GET',
      url: '/v1/me/limits',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(usage.json().serviceKeyBudget).toMatchObject({ monthlyBudgetUsd: 0.1, status: 'over', strict: false });
  });

  it('never exceeds a strict service-key budget under the same burst, and gives every reservation back', async () => {
    // $0.008002 a call (1 in, 1000 out); the reservation is the prompt estimate plus max_tokens 1000 at the list price.
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 1, outputTokens: 1_000 }, latencyMs: 20 });
    const { key, record } = await mintServiceKey(app(), { name: 'strict-batch', team: 'data', monthlyBudgetUsd: 0.05 });
    expect(
      (await admin(app(), 'PUT', '/admin/v1/users/rate-limits', { keys: { [record.id]: { strictBudget: true } } }))
        .statusCode,
    ).toBe(200);
    const responses = await Promise.all(Array.from({ length: 50 }, () => chat(app(), key, { max_tokens: 1_000 })));
    await metered(fixture.gateway);
    const ok = responses.filter((response) => response.statusCode === 200).length;
    expect(ok).toBe(6);
    expect(responses.filter((response) => response.statusCode === 402)).toHaveLength(44);
    const spent = successCost(await spendRows(fixture.gateway), record.id);
    expect(spent).toBeLessThanOrEqual(0.05);
    expect(spent).toBeCloseTo(6 * 0.008002, 10);
    expect(
      await coord.getCounter(
        reservationKey({ kind: 'key', id: record.id }, 'costMicros', bucketOf(fixture.gateway.clock.now())),
      ),
    ).toBe(0);
    expect((await chat(app(), key, { max_tokens: 1_000 })).statusCode).toBe(402);
    await admin(app(), 'PUT', '/admin/v1/users/rate-limits', {});
  });

  it('never exceeds a strict per-user token cap, where the soft cap lets the burst through', async () => {
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 1, outputTokens: 1_000 }, latencyMs: 20 });
    const strict = await mintClientKey(app(), { user: 'strict@example.com', team: 'a' });
    const soft = await mintClientKey(app(), { user: 'soft@example.com', team: 'a' });
    await admin(app(), 'PATCH', '/admin/user-caps/strict@example.com', { monthlyTokens: 5_000, strict: true });
    await admin(app(), 'PATCH', '/admin/user-caps/soft@example.com', { monthlyTokens: 5_000 });
    const burst = (key: string) =>
      Promise.all(Array.from({ length: 50 }, () => chat(app(), key, { max_tokens: 1_000 })));
    const [strictResponses, softResponses] = await Promise.all([burst(strict.key), burst(soft.key)]);
    await metered(fixture.gateway);
    const caps = (await admin(app(), 'GET', '/admin/user-caps')).json();
    expect(strictResponses.filter((response) => response.statusCode === 200).length).toBe(4);
    expect(caps.usage['strict@example.com']).toBe(4 * 1_001);
    expect(caps.usage['strict@example.com']).toBeLessThanOrEqual(5_000);
    // Soft (the spec's semantics): requests checked before earlier ones finished went through, past the cap.
    const softOk = softResponses.filter((response) => response.statusCode === 200).length;
    expect(softOk).toBeGreaterThan(5);
    expect(caps.usage['soft@example.com']).toBe(softOk * 1_001);
    expect(caps.usage['soft@example.com']).toBeGreaterThan(5_000);
  });

  it('fails open when the counters are unreachable, and says so in metrics and logs', async () => {
    const { key } = await mintServiceKey(app(), { name: 'tiny', team: 'data', monthlyBudgetUsd: 0.000001 });
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 1_000, outputTokens: 1_000 } });
    expect((await chat(app(), key)).statusCode).toBe(200);
    await metered(fixture.gateway);
    expect((await chat(app(), key)).statusCode).toBe(402);
    coord.countersDown = true;
    try {
      expect((await chat(app(), key)).statusCode).toBe(200);
    } finally {
      coord.countersDown = false;
    }
    expect(await metricsText(app())).toMatch(/gw_admission_fail_open_total\{check="usage_counters"\} [1-9]/);
    expect(fixture.gateway.logs.join('')).toContain('admission check failed open');
    // A new UTC month starts the budget over.
    fixture.gateway.clock.set(Date.UTC(2026, 11, 1, 0, 0, 1));
    try {
      expect((await chat(app(), key)).statusCode).toBe(200);
    } finally {
      fixture.gateway.clock.set(Date.UTC(2026, 10, 23, 12));
    }
  });
});
