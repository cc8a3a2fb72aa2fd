import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from '@gw/platform';
import { createIsolatedPgDb, testDbUrl, type TestDb } from '@gw/testkit';
import { gatewayMigrationsDir } from '../src/compose.js';
import { adminHeaders, mintClientKey, startTestGateway, type TestGateway } from './helpers.js';
import type { InferenceFixture } from './inference-helpers.js';
import { admin, answerAlways, chat, metered, startGovernanceFixture } from './governance-fixture.js';

// Keys, SCIM, seats and directives compare addresses case-insensitively; caps, budgets and their counters must too.
describe('one address rule: caps and budgets ignore case like keys and SCIM', () => {
  let fixture: InferenceFixture;
  let stopAnswering: () => void = () => undefined;
  beforeAll(async () => {
    fixture = await startGovernanceFixture();
  });
  afterAll(async () => {
    await fixture.close();
  });
  afterEach(() => {
    stopAnswering();
  });
  const app = () => fixture.gateway.app;

  it('a cap set for one spelling governs keys minted for another, counting their usage together', async () => {
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 400, outputTokens: 600 } });
    const upper = await mintClientKey(app(), { user: 'Dev@Example.com', team: 'a' });
    const lower = await mintClientKey(app(), { user: 'dev@example.com', team: 'a' });
    expect(
      (await admin(app(), 'PATCH', '/admin/user-caps/DEV@example.COM', { monthlyTokens: 1_500 })).json(),
    ).toMatchObject({ user: 'dev@example.com' });
    expect((await chat(app(), upper.key)).statusCode).toBe(200);
    await metered(fixture.gateway);
    expect((await chat(app(), lower.key)).statusCode).toBe(200);
    await metered(fixture.gateway);
    const refused = await chat(app(), upper.key);
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error).toMatchObject({ code: 'user_token_cap_exceeded' });
    expect((await admin(app(), 'GET', '/admin/user-caps')).json().usage).toMatchObject({ 'dev@example.com': 2_000 });
    expect((await admin(app(), 'GET', '/admin/user-caps/Dev@EXAMPLE.com')).json()).toMatchObject({
      user: 'dev@example.com',
      monthlyTokens: 1_500,
    });
    expect(
      (
        await app().inject({ method: 'GET', url: '/v1/me/limits', headers: { authorization: `Bearer ${upper.key}` } })
      ).json(),
    ).toMatchObject({ userCap: { monthlyTokens: 1_500 } });
  });

  it('refuses a cap map that names one address in two spellings', async () => {
    const response = await admin(app(), 'PUT', '/admin/user-caps', {
      caps: { 'ann@example.com': { monthlyTokens: 10 }, 'Ann@Example.com': { monthlyTokens: 20 } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('names one address twice');
  });

  it('applies a per-user rate limit written in another spelling', async () => {
    const { key } = await mintClientKey(app(), { user: 'Rate@Example.com', team: 'a' });
    expect(
      (
        await admin(app(), 'PUT', '/admin/v1/users/rate-limits', {
          users: { 'rate@example.com': { requestsPerMinute: 1 } },
        })
      ).statusCode,
    ).toBe(200);
    stopAnswering = answerAlways(fixture.openai, { usage: { inputTokens: 1, outputTokens: 1 } });
    expect((await chat(app(), key)).statusCode).toBe(200);
    expect((await chat(app(), key)).statusCode).toBe(429);
    await admin(app(), 'PUT', '/admin/v1/users/rate-limits', {});
  });
});

describe('the address fold migration', () => {
  let store: TestDb;
  let gateway: TestGateway;
  beforeAll(async () => {
    store = await createIsolatedPgDb(testDbUrl(process.env));
    const migrations = await loadMigrations(gatewayMigrationsDir);
    await migrate(
      store.db,
      'gateway',
      migrations.filter((migration) => migration.version < 40),
    );
    const insert =
      'INSERT INTO gw_user_caps (user_id, monthly_tokens, max_usd, revision, updated_by, updated_at) VALUES ($1, $2, $3, 1, $4, now())';
    await store.db.query(insert, ['Solo@Example.com', 100, null, 'admin-token']);
    await store.db.query(insert, ['Twin@Example.com', 100, null, 'admin-token']);
    await store.db.query(insert, ['twin@example.com', null, 5, 'admin-token']);
    gateway = await startTestGateway({ db: store.db });
  });
  afterAll(async () => {
    await gateway?.close();
    await store?.dispose();
  });

  it('folds a single spelling, and reports two spellings instead of merging them', async () => {
    const { rows } = await store.db.query<{ user_id: string }>('SELECT user_id FROM gw_user_caps ORDER BY user_id');
    expect(rows.map((row) => row.user_id)).toEqual(['Twin@Example.com', 'solo@example.com', 'twin@example.com']);
    const health = await gateway.app.inject({ method: 'GET', url: '/admin/health', headers: adminHeaders });
    expect(health.json()).toMatchObject({ addressConflicts: 1 });
    const audit = await gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/audit/events?limit=50',
      headers: adminHeaders,
    });
    expect(JSON.stringify(audit.json())).toContain('userCaps.addressConflict');
    expect(gateway.logs.join('')).toContain('cap rows name one address in more than one spelling');
    // Until an administrator decides, the lower-case row applies.
    expect(gateway.deps.governance.capOf('TWIN@example.com')).toMatchObject({
      user: 'twin@example.com',
      maxUsd: 5,
      monthlyTokens: null,
    });
  });

  it('lets an administrator settle a conflict by setting the address once', async () => {
    const patched = await gateway.app.inject({
      method: 'PATCH',
      url: '/admin/user-caps/Twin@Example.com',
      headers: adminHeaders,
      payload: { monthlyTokens: 50 },
    });
    expect(patched.json()).toMatchObject({ user: 'twin@example.com', monthlyTokens: 50, maxUsd: 5 });
    const { rows } = await store.db.query<{ user_id: string }>(
      "SELECT user_id FROM gw_user_caps WHERE lower(user_id) = 'twin@example.com'",
    );
    expect(rows).toEqual([{ user_id: 'twin@example.com' }]);
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/health', headers: adminHeaders })).json(),
    ).toMatchObject({ addressConflicts: 0 });
  });
});
