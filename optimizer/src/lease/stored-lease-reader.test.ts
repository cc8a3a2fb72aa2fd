import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { ManualClock, type Queryable } from '@gw/platform';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { deploymentId, entitlementLeaseDdl, hourMs, leaseIssuer } from '../../test/support/stored-lease.js';
import { leaseRefusal } from './lease-reader.js';
import { StoredLeaseReader } from './stored-lease-reader.js';

const refreshMs = 15_000;

type LogFunction = (...args: unknown[]) => void;

/** The shared store, with a switch that makes every query fail as a refused connection does. */
function outageable(db: Queryable) {
  const state = { down: false, queries: 0 };
  const store: Queryable = {
    query(sql, params) {
      state.queries += 1;
      if (state.down)
        return Promise.reject(
          Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
        );
      return db.query(sql, params);
    },
  };
  return { store, state };
}

describe('StoredLeaseReader', () => {
  let testDb: TestDb;
  let clock: ManualClock;
  let issuer: ReturnType<typeof leaseIssuer>;
  let logger: { info: Mock<LogFunction>; warn: Mock<LogFunction> };
  const readers: StoredLeaseReader[] = [];

  // One embedded store for the file (opening PGlite costs seconds); each test starts from a fresh table.
  beforeAll(async () => {
    testDb = await createMemoryPgliteDb();
  });
  afterAll(() => testDb.dispose());

  beforeEach(async () => {
    await testDb.db.exec(`DROP TABLE IF EXISTS gw_entitlement_lease; ${entitlementLeaseDdl}`);
    clock = new ManualClock();
    issuer = leaseIssuer();
    logger = { info: vi.fn<LogFunction>(), warn: vi.fn<LogFunction>() };
  });

  afterEach(() => {
    readers.splice(0).forEach((reader) => reader.stop());
    vi.useRealTimers();
  });

  async function started(db: Queryable = testDb.db, trust = issuer.trust): Promise<StoredLeaseReader> {
    const reader = new StoredLeaseReader({ db, deploymentId, trust, clock, logger, refreshMs });
    readers.push(reader);
    await reader.start();
    return reader;
  }

  it('reports no lease when the deployment has no row, and serves', async () => {
    const reader = await started();
    expect(reader.current()).toEqual({ state: 'none' });
    expect(leaseRefusal(reader.current())).toBeNull();
  });

  it('reports no lease when the gateway has not created the lease table yet', async () => {
    await testDb.db.exec('DROP TABLE gw_entitlement_lease');
    const reader = await started();
    expect(reader.current()).toEqual({ state: 'none' });
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it.each([
    [{}, 'valid', null],
    [{ optimizerEnabled: false }, 'paused', 402],
    [{ status: 'suspended' as const }, 'suspended', 403],
    [{ status: 'suspended' as const, optimizerEnabled: false }, 'suspended', 403],
  ])('maps a verified in-date lease %j to %s', async (fields, state, status) => {
    await issuer.store(testDb.db, clock, fields);
    const reader = await started();
    expect(reader.current().state).toBe(state);
    expect(leaseRefusal(reader.current())?.status ?? null).toBe(status);
  });

  it('refuses a lease the moment it expires, between refreshes and without a store call', async () => {
    const { store, state } = outageable(testDb.db);
    await issuer.store(testDb.db, clock, { validForMs: 10_000 });
    const reader = await started(store);
    expect(reader.current().state).toBe('valid');
    clock.advance(10_000);
    expect(reader.current().state).toBe('expired');
    expect(leaseRefusal(reader.current())?.status).toBe(402);
    expect(state.queries).toBe(1);
  });

  it('picks up a new lease on the next timer refresh', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await issuer.store(testDb.db, clock, { optimizerEnabled: false });
    const reader = await started();
    expect(reader.current().state).toBe('paused');
    clock.advance(refreshMs);
    await issuer.store(testDb.db, clock);
    await vi.advanceTimersByTimeAsync(refreshMs);
    // The timer started a read; wait for that read to land, then the new lease is the verdict.
    await reader.settled();
    expect(reader.current().state).toBe('valid');
  });

  it('treats a lease signed by a key it does not trust as unverifiable', async () => {
    await leaseIssuer().store(testDb.db, clock);
    const reader = await started();
    expect(reader.current()).toEqual({ state: 'unverifiable' });
    expect(leaseRefusal(reader.current())?.status).toBe(402);
  });

  it('treats a lease issued to another deployment as unverifiable', async () => {
    await issuer.store(testDb.db, clock, { deploymentId: 'dep-someone-else' });
    const reader = await started();
    expect(reader.current()).toEqual({ state: 'unverifiable' });
  });

  it('treats a stored row that is not a signed lease as unverifiable', async () => {
    await testDb.db.query('INSERT INTO gw_entitlement_lease VALUES ($1, $2, now(), now())', [
      deploymentId,
      JSON.stringify({ status: 'active' }),
    ]);
    const reader = await started();
    expect(reader.current()).toEqual({ state: 'unverifiable' });
  });

  it('keeps refusing an expired lease after a restart', async () => {
    await issuer.store(testDb.db, clock);
    (await started()).stop();
    clock.advance(2 * hourMs);
    const restarted = await started();
    expect(restarted.current()).toEqual({ state: 'expired' });
    expect(leaseRefusal(restarted.current())?.status).toBe(402);
  });

  it('is unverifiable while the store has been down since start, until a read succeeds', async () => {
    const { store, state } = outageable(testDb.db);
    await issuer.store(testDb.db, clock, { validForMs: -1 });
    state.down = true;
    const reader = await started(store);
    expect(reader.current()).toEqual({ state: 'unverifiable' });
    expect(logger.warn).toHaveBeenCalledWith(
      expect.anything(),
      expect.stringContaining('unverifiable until a read succeeds'),
    );
    state.down = false;
    await reader.refresh();
    expect(reader.current()).toEqual({ state: 'expired' });
  });

  it('keeps the last lease read through a store outage, still judging its expiry, and logs no lease content', async () => {
    const { store, state } = outageable(testDb.db);
    await issuer.store(testDb.db, clock, { validForMs: hourMs });
    const reader = await started(store);
    state.down = true;
    clock.advance(refreshMs);
    await reader.refresh();
    expect(reader.current()).toEqual({ state: 'valid' });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    const [fields, message] = logger.warn.mock.calls[0] as [Record<string, unknown>, string];
    expect(message).toContain('keeping the last lease read');
    const { rows } = await testDb.db.query<{ lease: { signature: string; payload: string } }>(
      'SELECT lease FROM gw_entitlement_lease',
    );
    const logged = JSON.stringify({ ...fields, err: String(fields.err) }) + message;
    expect(logged).not.toContain(rows[0].lease.signature);
    expect(logged).not.toContain(rows[0].lease.payload);
    clock.advance(hourMs);
    expect(reader.current()).toEqual({ state: 'expired' });
  });
});
