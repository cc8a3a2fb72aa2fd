import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bucketOf, reservationKey } from '../src/governance/reservations.js';
import { mintClientKey } from './helpers.js';
import type { InferenceFixture } from './inference-helpers.js';
import { admin, answerAlways, chat, metered, startGovernanceFixture } from './governance-fixture.js';

// gpt-4.1 costs $2/M in and $8/M out and may write 32,768 tokens: reserving that ceiling ($0.26) for every call
// without max_tokens made any strict cap under it refuse everything.
describe('strict budgets reserve what a call can use, and say so when they refuse', () => {
  let fixture: InferenceFixture;
  let stopAnswering: () => void = () => undefined;
  beforeAll(async () => {
    fixture = await startGovernanceFixture({ env: { GW_STRICT_DEFAULT_OUTPUT_TOKENS: '2000' } });
  });
  afterAll(async () => {
    await fixture.close();
  });
  afterEach(() => {
    stopAnswering();
    fixture.openai.reset();
  });
  const app = () => fixture.gateway.app;

  it('admits a call without max_tokens under a cap smaller than the model ceiling, and settles to the actual cost', async () => {
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 1_000, outputTokens: 500 } });
    const { key } = await mintClientKey(app(), { user: 'small-cap@example.com', team: 'a' });
    expect(
      (await admin(app(), 'PATCH', '/admin/user-caps/small-cap@example.com', { maxUsd: 0.06, strict: true }))
        .statusCode,
    ).toBe(200);
    // $0.006 a call ($0.002 in + $0.004 out); the reservation is the prompt estimate plus 2,000 tokens ($0.016).
    const first = await chat(app(), key);
    expect(first.statusCode).toBe(200);
    await metered(fixture.gateway);
    const caps = (await admin(app(), 'GET', '/admin/user-caps')).json();
    expect(caps.budgetUsage['small-cap@example.com']).toBeCloseTo(0.006, 10);
    expect(
      await fixture.gateway.deps.coord.getCounter(
        reservationKey(
          { kind: 'user', id: 'small-cap@example.com' },
          'costMicros',
          bucketOf(fixture.gateway.clock.now()),
        ),
      ),
    ).toBe(0);
  });

  it('reserves the request’s own bound when it names one, and the model default from the routing table', async () => {
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 1, outputTokens: 10 } });
    const { key } = await mintClientKey(app(), { user: 'bounded@example.com', team: 'a' });
    // $0.01 cap: 2,000 default output tokens ($0.016) do not fit, 500 named ones ($0.004) do.
    await admin(app(), 'PATCH', '/admin/user-caps/bounded@example.com', { maxUsd: 0.01, strict: true });
    const unbounded = await chat(app(), key);
    expect(unbounded.statusCode).toBe(402);
    expect(unbounded.json().error.message).toMatch(
      /\$0\.00 spent \+ \$0\.02 reserved for calls in flight \(this one included\) of \$0\.01/,
    );
    expect((await chat(app(), key, { max_tokens: 500 })).statusCode).toBe(200);
    const models = await admin(app(), 'PUT', '/admin/v1/routing/models', {
      models: { 'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8, maxOutputTokens: 32_768, defaultOutputTokens: 200 } },
    });
    expect(models.statusCode).toBe(200);
    expect((await chat(app(), key)).statusCode).toBe(200);
    await admin(app(), 'PUT', '/admin/v1/routing/models', { models: {} });
  });
});
