import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedPgDb, testDbUrl, type TestDb } from '@gw/testkit';
import { SwitchableDb } from './helpers.js';
import { recordedSpend } from './spend-signals.js';
import type { InferenceFixture } from './inference-helpers.js';
import { answerAlways, chat, metricsText, startGovernanceFixture } from './governance-fixture.js';

describe('spend persistence through a Postgres outage', () => {
  let isolated: TestDb;
  let db: SwitchableDb;
  let fixture: InferenceFixture;
  beforeAll(async () => {
    isolated = await createIsolatedPgDb(testDbUrl(process.env));
    db = new SwitchableDb(isolated.db);
    fixture = await startGovernanceFixture({ db });
  });
  afterAll(async () => {
    await fixture.close();
    await isolated.dispose();
  });

  /** Resolves once the metering stage has recorded each response's spend record. */
  const recordsOf = (responses: Array<{ headers: Record<string, unknown> }>) =>
    Promise.all(
      responses.map((response) =>
        recordedSpend(fixture.gateway, (record) => record.traceId === response.headers['x-gw-trace-id']),
      ),
    );

  it('writes one gw_spend row per completed request when the store goes away mid-load and comes back', async () => {
    answerAlways(fixture.openai, { latencyMs: 150 });
    const app = fixture.gateway.app;
    const before = await Promise.all(Array.from({ length: 10 }, () => chat(app, fixture.clientKey)));
    // Mid-load: 30 requests in flight when the store goes down; their rows must wait on disk, not vanish.
    const reachedBefore = fixture.openai.requests.length;
    const inFlight = Array.from({ length: 30 }, () => chat(app, fixture.clientKey));
    await fixture.openai.waitForRequests(reachedBefore + 30);
    db.down = true;
    // Requests arriving during the outage fail closed at identity (503 key_store_unavailable), never forwarded.
    const during = await Promise.all(Array.from({ length: 5 }, () => chat(app, fixture.clientKey)));
    const settled = await Promise.all(inFlight);
    // Every answered call's record is in the writer (a record is made as its handler returns, which may be a moment
    // after the response reached the client); the next write attempt fails against the store that is down.
    await recordsOf(settled);
    await fixture.gateway.deps.spendWriter.flush();
    // A failed write moved them to the on-disk journal at once: nothing waits in memory for a crash to take.
    expect(fixture.gateway.deps.spendWriter.depth).toBe(0);
    expect(await metricsText(app)).toMatch(/gw_spend_spilled_total [1-9]/);
    db.down = false;
    const after = await Promise.all(Array.from({ length: 10 }, () => chat(app, fixture.clientKey)));

    const responses = [...before, ...settled, ...during, ...after];
    const completed = responses.filter((response) => response.statusCode !== 503);
    expect(
      during.every((response) => response.statusCode === 503 && response.json().code === 'key_store_unavailable'),
    ).toBe(true);
    expect(completed.length).toBeGreaterThanOrEqual(20);
    const rowCount = async () => {
      expect(await fixture.gateway.deps.spendWriter.drain()).toBe(0);
      return Number(
        (await isolated.db.query<{ count: string }>('SELECT count(*) AS count FROM gw_spend')).rows[0]?.count,
      );
    };
    await recordsOf(completed);
    expect(await rowCount()).toBe(completed.length);
    expect(await metricsText(app)).toMatch(/gw_spend_write_failures_total [1-9]/);
    expect(await metricsText(app)).toContain('gw_spend_queue_depth 0');
  });
});
