import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, type Db } from '@gw/platform';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { migrateOptimizer } from '../stash/migrations.js';
import { ShadowCounters } from './shadow-counters.js';

/** A store that is down: every query fails the way an unreachable Postgres does. */
const unreachable = { query: () => Promise.reject(new Error('connect ECONNREFUSED')) } as unknown as Db;

describe('ShadowCounters', () => {
  let store: TestDb;
  const clock = new ManualClock(Date.parse('2026-11-24T23:59:50Z'));
  beforeEach(async () => {
    store = await createMemoryPgliteDb();
    await migrateOptimizer(store.db);
  });
  afterEach(async () => {
    await store.dispose();
  });

  it('reports this replica alone, not durable, without a store or while it is unreachable', async () => {
    const counters = new ShadowCounters(clock);
    counters.lookup(true);
    counters.lookup(false);
    counters.compare(true);
    expect(await counters.telemetry(null)).toEqual({ lookups: 2, hits: 1, strictPrecision: 1, durable: false });
    expect(await counters.flush(unreachable)).toBe(false);
    expect(await counters.telemetry(unreachable)).toEqual({ lookups: 2, hits: 1, strictPrecision: 1, durable: false });
  });

  it('adds every replica’s flushed counts per day and keeps what a failed flush could not write', async () => {
    const first = new ShadowCounters(clock);
    const second = new ShadowCounters(clock);
    first.lookup(true);
    first.compare(true);
    expect(await first.flush(store.db)).toBe(true);
    clock.advance(20_000); // the next UTC day: a second row
    second.lookup(true);
    second.compare(false);
    expect(await second.flush(unreachable)).toBe(false);
    second.lookup(false);
    expect(await second.flush(store.db)).toBe(true);
    second.lookup(false); // unflushed remainder
    expect(await second.telemetry(store.db)).toEqual({ lookups: 4, hits: 2, strictPrecision: 0.5, durable: true });
    const { rows } = await store.db.query<{ day: string; lookups: number }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, lookups FROM optimizer_cache_shadow ORDER BY day`,
    );
    expect(rows).toEqual([
      { day: '2026-11-24', lookups: 1 },
      { day: '2026-11-25', lookups: 2 },
    ]);
    // Nothing new: no write at all.
    expect(await first.flush(store.db)).toBe(false);
  });

  it('never adds the same counts twice when flushes overlap (the timer and shutdown)', async () => {
    const counters = new ShadowCounters(clock);
    counters.lookup(true);
    counters.lookup(false);
    // The first write is held until the second flush has arrived, so the two overlap whatever the machine's speed.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = {
      query: async (...args: Parameters<Db['query']>) => {
        await held;
        return store.db.query(...args);
      },
    } as unknown as Db;
    const flushes = [counters.flush(slow), counters.flush(slow)];
    release();
    const results = await Promise.all(flushes);
    expect(results).toEqual([true, false]);
    const { rows } = await store.db.query<{ lookups: number }>(
      'SELECT sum(lookups)::bigint AS lookups FROM optimizer_cache_shadow',
    );
    expect(rows[0]?.lookups).toBe(2);
  });

  it('keeps counts that arrive while a flush is being written', async () => {
    const counters = new ShadowCounters(clock);
    counters.lookup(true);
    let release: () => void = () => undefined;
    const slow = {
      query: async (...args: Parameters<Db['query']>) => {
        await new Promise<void>((resolve) => (release = resolve));
        return store.db.query(...args);
      },
    } as unknown as Db;
    const flushing = counters.flush(slow);
    counters.lookup(false);
    release();
    expect(await flushing).toBe(true);
    expect(await counters.flush(store.db)).toBe(true);
    expect(await counters.telemetry(store.db)).toMatchObject({ lookups: 2, hits: 1, durable: true });
  });
});
