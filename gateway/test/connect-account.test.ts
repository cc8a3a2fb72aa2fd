import { describe, expect, it } from 'vitest';
import { bearer, gatewayPerTest, mintClientKey, mintServiceKey, revokeKey } from './helpers.js';

describe('connect verify, savings and hook savings', () => {
  const gateway = gatewayPerTest();
  const post = (url: string, key: string, payload?: Record<string, unknown>) =>
    gateway.app.inject({ method: 'POST', url, headers: bearer(key), ...(payload ? { payload } : {}) });

  it('verifies a key with its attribution, and answers each key failure with its own code', async () => {
    const { key, record } = await mintClientKey(gateway.app, {
      user: 'ada@example.com',
      team: 'platform',
      expiresInDays: 30,
    });
    const verified = await post('/connect/verify', key);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({
      status: 'ok',
      user: 'ada@example.com',
      team: 'platform',
      tenant: null,
      key: {
        id: record.id,
        type: 'client',
        keyPrefix: record.keyPrefix,
        source: record.source,
        createdAt: record.createdAt,
        expiresAt: record.expiresAt,
      },
      seat: { offboarded: false },
    });
    await post('/connect/offboard', key);
    expect((await post('/connect/verify', key)).json().seat).toEqual({ offboarded: true });

    await revokeKey(gateway.app, record.id);
    const revoked = await post('/connect/verify', key);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toMatchObject({ status: 'failure', code: 'key_revoked' });
    const unknown = await post('/connect/verify', `ark_${'x'.repeat(40)}`);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ status: 'failure', code: 'key_unknown' });
  });

  it('lets a service key verify itself and nothing else on /connect', async () => {
    const { key, record } = await mintServiceKey(gateway.app, { name: 'ci-bot', team: 'platform' });
    expect((await post('/connect/verify', key)).json()).toMatchObject({
      status: 'ok',
      key: { id: record.id, type: 'service' },
    });
    for (const [method, url] of [
      ['GET', '/connect/policy'],
      ['GET', '/connect/savings'],
      ['POST', '/connect/mcp-heartbeat'],
      ['POST', '/connect/offboard'],
    ] as const) {
      const refused = await gateway.app.inject({ method, url, headers: bearer(key) });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json(), url).toMatchObject({ status: 'failure', code: 'service_key_not_allowed' });
    }
  });

  it('prices hook savings with the gateway’s own table and reports them beside the optimizer’s, by month and all time', async () => {
    const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'platform' });
    const priced = await post('/connect/hook-savings', key, { tokensSaved: 1_000_000, model: 'gpt-4o-mini' });
    expect(priced.json()).toEqual({ status: 'ok', tokensSaved: 1_000_000, savingsUsd: 0.15 });
    expect((await post('/connect/hook-savings', key, { tokensSaved: 500 })).json()).toEqual({
      status: 'ok',
      tokensSaved: 500,
      savingsUsd: 0,
    });
    expect(
      (await post('/connect/hook-savings', key, { tokensSaved: 200, model: 'no-such-model' })).json().savingsUsd,
    ).toBe(0);

    // The next month: this month's hook savings start again, all time keeps counting.
    gateway.clock.advance(31 * 86_400_000);
    await post('/connect/hook-savings', key, { tokensSaved: 2_000_000, model: 'gpt-4o-mini' });
    const savings = await gateway.app.inject({ method: 'GET', url: '/connect/savings', headers: bearer(key) });
    expect(savings.statusCode).toBe(200);
    expect(savings.json()).toEqual({
      status: 'ok',
      period: { month: '2026-12', start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z' },
      gateway: { tokensSaved: 0, savingsUsd: 0, requests: 0 },
      hooks: {
        month: { tokensSaved: 2_000_000, savingsUsd: 0.3, events: 1 },
        allTime: { tokensSaved: 3_000_700, savingsUsd: 0.45, events: 4 },
      },
      totalUsd: 0.3,
    });
  });

  it('refuses a hook saving that is not a count of tokens', async () => {
    const { key } = await mintClientKey(gateway.app);
    for (const payload of [
      { tokensSaved: -1 },
      { tokensSaved: 1.5 },
      { tokensSaved: 3_000_000 },
      { tokensSaved: 10, savingsUsd: 99 },
      { tokensSaved: 10, model: 'bad model' },
      {},
    ]) {
      const response = await post('/connect/hook-savings', key, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ status: 'failure', code: 'invalid_request' });
    }
  });
});
