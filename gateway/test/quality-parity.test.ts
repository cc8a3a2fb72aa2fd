import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@gw/platform';
import { PgliteDb } from '@gw/platform/pglite';
import { readQualityArms } from '../src/optimization/quality/admin/quality-parity.query.js';
import { windowRange } from '../src/governance/spend/spend-window.js';
import { migrateGateway } from '../src/compose.js';
import { assessQualityParity, summarizeSessions, type SessionTotals } from '../src/optimization/quality/index.js';
import { baseShape, syntheticSessions, type ArmShape } from '../src/optimization/quality/synthetic-sessions.js';
import { mintAdminKey } from './admin-support.js';
import { adminHeaders, adminToken, bearer, startTestGateway, type TestGateway } from './helpers.js';

const hourMs = 3_600_000;
const now = Date.UTC(2026, 10, 23, 12);

interface Arm {
  cohort: 'holdout' | 'treated';
  cohortKind?: string;
}

/** Rows of one session: successes share its tokens, latency and cost; errors carry none (as metering writes them). */
function sessionRows(session: SessionTotals, id: string, arm: Arm | null, at: number) {
  const rows: unknown[][] = [];
  const share = (total: number, index: number) =>
    index === 0
      ? total - Math.floor(total / session.successes) * (session.successes - 1)
      : Math.floor(total / session.successes);
  const attribution = {
    session: id,
    ...(arm ? { optimizer: { cohort: arm.cohort, cohortKind: arm.cohortKind ?? null } } : {}),
  };
  for (let index = 0; index < session.requests; index += 1) {
    const success = index < session.successes;
    rows.push([
      `${id}-${index}`,
      new Date(at + index * 1000),
      success ? 200 : 502,
      success ? 'success' : 'error',
      success ? share(session.outputTokens, index) : 0,
      success ? share(session.latencyMs, index) : 0,
      success ? session.costUsd / session.successes : 0,
      JSON.stringify(attribution),
    ]);
  }
  return rows;
}

async function insertRows(db: Db, rows: unknown[][]) {
  const column = (index: number) => rows.map((row) => row[index]);
  await db.query(
    `INSERT INTO gw_spend (id, ts, endpoint, method, status, outcome, completion_tokens, latency_ms, cost_usd, user_id, team, attribution)
     SELECT id, ts, '/v1/chat/completions', 'POST', status, outcome, completion_tokens, latency_ms, cost_usd, 'dev@example.com', 'platform', attribution::jsonb
       FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::text[], $5::int[], $6::int[], $7::numeric[], $8::text[])
         AS t(id, ts, status, outcome, completion_tokens, latency_ms, cost_usd, attribution)`,
    [0, 1, 2, 3, 4, 5, 6, 7].map(column),
  );
}

let sequence = 0;
/** Inserts one synthetic arm (sessions inside the last 7 days) and returns its sessions. */
async function seedArm(
  db: Db,
  arm: Arm | null,
  shape: Partial<ArmShape>,
  seed: number,
  at = now - 3 * 24 * hourMs,
): Promise<SessionTotals[]> {
  const sessions = syntheticSessions({ ...baseShape, ...shape, seed });
  const rows = sessions.flatMap((session) => sessionRows(session, `gws_${(sequence += 1).toString(36)}`, arm, at));
  for (let start = 0; start < rows.length; start += 2000) await insertRows(db, rows.slice(start, start + 2000));
  return sessions;
}

/** A stand-in for the optimizer's `GET /admin/optimizer/settings`, whose holdout config the test sets. */
function settingsStub() {
  const state: { holdout: unknown; status: number; bearers: string[] } = {
    holdout: { enabled: true, fraction: 0.5 },
    status: 200,
    bearers: [],
  };
  const server: Server = createServer((request, response) => {
    state.bearers.push(request.headers.authorization ?? '');
    response.writeHead(request.url === '/admin/optimizer/settings' ? state.status : 404, {
      'content-type': 'application/json',
    });
    response.end(JSON.stringify({ config: { holdout: state.holdout } }));
  });
  return { state, server };
}

describe('GET /admin/spend/quality-parity end to end', () => {
  let gateway: TestGateway;
  const stub = settingsStub();
  let treated: SessionTotals[];
  let holdout: SessionTotals[];
  let logFoldHoldout: SessionTotals[];

  const get = (
    query: string,
    headers: Record<string, string> = adminHeaders,
    base = '/admin/v1/spend/quality-parity',
  ) => gateway.app.inject({ method: 'GET', url: `${base}${query}`, headers });

  beforeAll(async () => {
    await new Promise<void>((resolve) => stub.server.listen(0, '127.0.0.1', resolve));
    const port = (stub.server.address() as AddressInfo).port;
    gateway = await startTestGateway({ env: { GW_OPTIMIZER_URL: `http://127.0.0.1:${port}` } });
    gateway.clock.set(now);
    const db = gateway.deps.db;
    // Whole-optimizer arm: same quality, half the cost per request.
    holdout = await seedArm(db, { cohort: 'holdout' }, {}, 11);
    treated = await seedArm(db, { cohort: 'treated' }, { costPerRequest: 0.01 }, 12);
    // Withholding log_fold takes 30% fewer turns: treated sessions take ~43% more than that arm.
    logFoldHoldout = await seedArm(db, { cohort: 'holdout', cohortKind: 'log_fold' }, { turns: 7 }, 13);
    await seedArm(db, { cohort: 'holdout', cohortKind: 'json_minify' }, { sessions: 12 }, 14);
    // Noise the report must ignore: unattributable rows, rejected admissions, and a wild arm outside the window.
    await seedArm(db, { cohort: 'treated' }, { sessions: 50, turns: 40 }, 15, now - 10 * 24 * hourMs);
    await seedArm(db, null, { sessions: 50, errorRate: 0.9 }, 16);
    await gateway.deps.db.query(
      `INSERT INTO gw_spend (id, ts, endpoint, method, status, outcome, attribution) VALUES ('rejected-1', $1, '/v1/chat/completions', 'POST', 429, 'rejected', '{"session":"gws_r","optimizer":{"cohort":"holdout","cohortKind":null}}')`,
      [new Date(now - hourMs)],
    );
  });
  afterAll(async () => {
    await gateway.close();
    await new Promise<void>((resolve) => stub.server.close(() => resolve()));
  });
  beforeEach(() => {
    stub.state.holdout = { enabled: true, fraction: 0.5 };
    stub.state.status = 200;
  });

  it('finds parity and a met cost objective for the whole-optimizer arm, matching the statistics computed in memory', async () => {
    const response = await get('');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const range = windowRange('7d', now);
    expect(body).toMatchObject({
      window: '7d',
      cohortKind: null,
      verdict: 'parity',
      period: { start: new Date(range.start).toISOString(), end: new Date(range.end).toISOString() },
    });
    expect(body.arms).toEqual({
      holdout: { sessions: 300, requests: holdout.reduce((sum, session) => sum + session.requests, 0) },
      treated: { sessions: 300, requests: treated.reduce((sum, session) => sum + session.requests, 0) },
    });
    expect(body.grossCostObjective).toMatchObject({ verdict: 'target_met', objective: 0.3 });
    expect(body.grossCostObjective.reductionCiLow).toBeGreaterThanOrEqual(0.3);
    expect(body.proxies.latencyMs.verdict).toBe('display_only');
    expect(body.sampleRatio).toMatchObject({ expectedHoldoutShare: 0.5, observedHoldoutShare: 0.5, mismatch: false });
    // The SQL aggregates per session in the database; the numbers equal the reference computation on the raw sessions.
    const reference = assessQualityParity({
      holdout: summarizeSessions(holdout),
      treated: summarizeSessions(treated),
      attributable: true,
      expectedHoldoutShare: 0.5,
    });
    for (const [name, proxy] of Object.entries(reference.proxies)) {
      for (const [field, value] of Object.entries(proxy)) {
        if (typeof value === 'number') expect(body.proxies[name][field], `${name}.${field}`).toBeCloseTo(value, 6);
        else expect(body.proxies[name][field], `${name}.${field}`).toBe(value);
      }
    }
    expect(body.grossCostObjective.reductionPoint).toBeCloseTo(
      reference.grossCostObjective.reductionPoint ?? Number.NaN,
      8,
    );
    expect(body.grossCostObjective.reductionCiLow).toBeCloseTo(
      reference.grossCostObjective.reductionCiLow ?? Number.NaN,
      8,
    );
  });

  it('answers the same body on the legacy route, with Deprecation and a successor link', async () => {
    const legacy = await get('', adminHeaders, '/admin/spend/quality-parity');
    expect(legacy.statusCode).toBe(200);
    expect(legacy.headers.deprecation).toBe('true');
    expect(legacy.headers.link).toContain('/admin/v1/spend/quality-parity');
    expect(legacy.json()).toEqual((await get('')).json());
  });

  it('reads a per-strategy arm by cohortKind and flags the turns regression it reveals', async () => {
    const body = (await get('?cohortKind=log_fold')).json();
    expect(body.cohortKind).toBe('log_fold');
    expect(body.arms.holdout.sessions).toBe(logFoldHoldout.length);
    expect(body.verdict).toBe('regression');
    expect(body.proxies.turnsPerSession.verdict).toBe('regression');
    expect(body.proxies.turnsPerSession.relativeDelta).toBeGreaterThan(0.3);
    expect(body.grossCostObjective.verdict).toBe('target_not_proven');
  });

  it('answers insufficient for an arm below 30 sessions, and for an arm nobody was assigned to', async () => {
    const small = (await get('?cohortKind=json_minify')).json();
    expect(small).toMatchObject({
      verdict: 'insufficient',
      arms: { holdout: { sessions: 12 } },
      grossCostObjective: { verdict: 'insufficient' },
    });
    expect((await get('?cohortKind=whitespace_trim')).json()).toMatchObject({
      verdict: 'insufficient',
      arms: { holdout: { sessions: 0, requests: 0 } },
    });
  });

  it('answers holdout_off when the window holds no attributable row', async () => {
    for (const window of ['24h', 'prev-month']) {
      const body = (await get(`?window=${window}`)).json();
      expect(body, window).toMatchObject({
        window,
        verdict: 'holdout_off',
        arms: { holdout: { sessions: 0 }, treated: { sessions: 0 } },
        grossCostObjective: { verdict: 'holdout_off', reductionPoint: null },
      });
    }
  });

  it('answers imbalanced when the arm sizes contradict the configured fraction, asking the optimizer with the admin token', async () => {
    stub.state.holdout = { enabled: true, fraction: 0.1 };
    const body = (await get('')).json();
    expect(body.verdict).toBe('imbalanced');
    expect(body.sampleRatio).toMatchObject({ expectedHoldoutShare: 0.1, observedHoldoutShare: 0.5, mismatch: true });
    expect(body.sampleRatio.pValue).toBeLessThan(0.001);
    expect(stub.state.bearers.at(-1)).toBe(`Bearer ${adminToken}`);
    // Per-strategy arms: one of K kinds is withheld per control session, so log_fold expects fraction/K.
    stub.state.holdout = { enabled: true, fraction: 0.5, kinds: ['log_fold', 'json_minify'] };
    expect((await get('?cohortKind=log_fold')).json().sampleRatio.expectedHoldoutShare).toBeCloseTo(0.25 / 0.75, 12);
  });

  it('still reports when the optimizer cannot say its fraction, skipping only the sample-ratio test', async () => {
    stub.state.status = 500;
    const body = (await get('')).json();
    expect(body.verdict).toBe('parity');
    expect(body.sampleRatio).toMatchObject({ expectedHoldoutShare: null, pValue: null, mismatch: false });
  });

  it.each([
    ['?window=1y', 'querystring.window'],
    ['?cohortKind=not%20a%20kind', 'querystring.cohortKind'],
    ['?cohortKind=', 'querystring.cohortKind'],
    ['?cohort=holdout', 'querystring'],
  ])('answers 400 naming the parameter for %s', async (query, named) => {
    const v1 = await get(query);
    expect(v1.statusCode).toBe(400);
    expect(v1.json().error).toMatchObject({ code: 'invalid_request' });
    expect(v1.json().error.message).toContain(named);
    expect(v1.json().error.request_id).toEqual(expect.any(String));
    const legacy = await get(query, adminHeaders, '/admin/spend/quality-parity');
    expect(legacy.statusCode).toBe(400);
    expect(legacy.json().error.message).toContain(named);
  });

  it('is gated by spend:read on v1 and config:read on the legacy route', async () => {
    const reader = await mintAdminKey(gateway.app, { scopes: ['spend:read'] });
    const other = await mintAdminKey(gateway.app, { scopes: ['keys:read'] });
    const viewer = await mintAdminKey(gateway.app, { caps: ['config:read'] });
    expect((await get('', bearer(reader.key))).statusCode).toBe(200);
    const denied = await get('', bearer(other.key));
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.required_scope).toBe('spend:read');
    expect((await get('', bearer(viewer.key), '/admin/spend/quality-parity')).statusCode).toBe(200);
    expect((await get('', {}, '/admin/spend/quality-parity')).statusCode).toBe(401);
  });
});

describe('quality-parity aggregation on the embedded store (PGlite runs the same SQL)', () => {
  it('computes the same session-level moments as the in-memory reference', async () => {
    const db = await PgliteDb.open();
    try {
      await migrateGateway(db);
      const holdoutSessions = await seedArm(db, { cohort: 'holdout' }, { sessions: 40 }, 21);
      const treatedSessions = await seedArm(db, { cohort: 'treated' }, { sessions: 45, errorRate: 0.1 }, 22);
      const arms = await readQualityArms(db, windowRange('7d', now), null);
      expect(arms.attributable).toBe(true);
      for (const [name, sessions] of [
        ['holdout', holdoutSessions],
        ['treated', treatedSessions],
      ] as const) {
        const expected = summarizeSessions(sessions);
        const actual = arms[name];
        expect(actual.sessions).toBe(expected.sessions);
        expect(actual.requests).toBe(expected.requests);
        for (const key of ['turns', 'outputTokens', 'errors', 'latency', 'cost'] as const) {
          for (const [field, value] of Object.entries(expected[key]))
            expect((actual[key] as unknown as Record<string, number>)[field], `${name}.${key}.${field}`).toBeCloseTo(
              value,
              6,
            );
        }
      }
    } finally {
      await db.close();
    }
    // Booting the WASM database and running every migration takes seconds on a loaded machine.
  }, 60_000);
});
