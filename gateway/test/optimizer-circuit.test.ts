import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFrozenServer, type FrozenServerHandle } from '@gw/testkit';
import { adminHeaders } from './helpers.js';
import { spendRowOf, startInferenceFixture, type InferenceFixture } from './inference-helpers.js';

describe('the optimizer circuit breaker with a frozen optimizer', () => {
  let frozen: FrozenServerHandle;
  let fixture: InferenceFixture;

  beforeAll(async () => {
    frozen = await startFrozenServer();
    fixture = await startInferenceFixture({
      env: {
        GW_OPTIMIZER_URL: frozen.url,
        GW_OPTIMIZER_TOKEN: 'optimizer-token-0123456789',
        GW_OPTIMIZER_TIMEOUT_MS: '100',
        GW_OPTIMIZER_BREAKER_FAILURES: '3',
        GW_OPTIMIZER_BREAKER_COOLOFF_MS: '10000',
      },
    });
  });
  afterAll(async () => {
    await fixture.close();
    await frozen.close();
  });

  const chat = async () => {
    const response = await fixture.gateway.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: fixture.auth,
      payload: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] },
    });
    expect(response.statusCode).toBe(200);
    const row = await spendRowOf(fixture.gateway, response);
    return {
      header: response.headers['x-gw-optimization'],
      status: row.optimization_status,
      reason: row.optimization_reason,
    };
  };
  const optimizeCalls = () => frozen.requests.filter((request) => request.path === '/v1/optimize').length;
  const health = async () =>
    (await fixture.gateway.app.inject({ method: 'GET', url: '/admin/health', headers: adminHeaders })).json().optimizer;
  const metrics = async () => (await fixture.gateway.app.inject({ method: 'GET', url: '/metrics' })).body;

  it('pays the timeout on the first calls only, then skips the optimizer while it stays frozen', async () => {
    expect((await health()).circuit).toMatchObject({ state: 'closed', consecutiveFailures: 0, skipped: 0 });
    for (let call = 0; call < 3; call += 1)
      expect(await chat()).toEqual({ header: 'timeout', status: 'timeout', reason: 'timeout' });
    expect(optimizeCalls()).toBe(3);

    for (let call = 0; call < 5; call += 1)
      expect(await chat()).toEqual({ header: 'error', status: 'error', reason: 'circuit_open' });
    // The later calls never reached the optimizer.
    expect(optimizeCalls()).toBe(3);
    expect((await health()).circuit).toMatchObject({
      state: 'open',
      consecutiveFailures: 3,
      skipped: 5,
      probeAt: new Date(fixture.gateway.clock.now() + 10_000).toISOString(),
    });
    const text = await metrics();
    expect(text).toContain('gw_optimizer_circuit_state{state="open"} 1');
    expect(text).toContain('gw_optimizer_circuit_state{state="closed"} 0');
    expect(text).toContain('gw_optimizer_circuit_skipped_total 5');
  });

  it('lets one probe through after the cool-off, and opens again when it times out too', async () => {
    fixture.gateway.clock.advance(10_000);
    expect(await chat()).toEqual({ header: 'timeout', status: 'timeout', reason: 'timeout' });
    expect(optimizeCalls()).toBe(4);
    expect(await chat()).toEqual({ header: 'error', status: 'error', reason: 'circuit_open' });
    expect(optimizeCalls()).toBe(4);
    expect((await health()).circuit.state).toBe('open');
    expect(fixture.gateway.logs.join('')).toContain('optimizer circuit open');
  });
});
