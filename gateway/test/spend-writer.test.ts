import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '@gw/platform';
import { createIsolatedPgDb, testDbUrl, type TestDb } from '@gw/testkit';
import { migrateGateway } from '../src/compose.js';
import { SpendSpill } from '../src/metering/spend-spill.js';
import { SpendWriter } from '../src/metering/spend-writer.js';
import { SwitchableDb } from './helpers.js';
import { spendRecord } from './spend-record-fixture.js';

const logger = createLogger({ name: 'spend-writer-test', level: 'silent' });

const record = (index: number) => spendRecord(index);

function counting() {
  const counts = { spilled: 0, replayed: 0, dropped: 0, failures: 0, depth: 0 };
  let failed: () => void = () => undefined;
  /** Resolves at the writer's first failed write: the moment it reports it, not after a while. */
  const firstFailure = new Promise<void>((resolve) => {
    failed = resolve;
  });
  return {
    counts,
    firstFailure,
    hooks: {
      onSpilled: (count: number) => void (counts.spilled += count),
      onReplayed: (count: number) => void (counts.replayed += count),
      onDropped: (count: number) => void (counts.dropped += count),
      onWriteFailure: () => {
        counts.failures += 1;
        failed();
      },
      onDepth: (depth: number) => void (counts.depth = depth),
    },
  };
}

describe('spend writer: nothing lost across a store outage or a restart', () => {
  let isolated: TestDb;
  let db: SwitchableDb;
  let dir: string;
  const rowCount = async () =>
    Number((await isolated.db.query<{ count: string }>('SELECT count(*) AS count FROM gw_spend')).rows[0]?.count);
  const traceIds = async () =>
    (await isolated.db.query<{ id: string }>('SELECT id FROM gw_traces ORDER BY id')).rows.map((row) => row.id);

  beforeEach(async () => {
    isolated = await createIsolatedPgDb(testDbUrl(process.env));
    await migrateGateway(isolated.db);
    db = new SwitchableDb(isolated.db);
    dir = mkdtempSync(join(tmpdir(), 'gw-spill-'));
  });
  afterEach(async () => {
    await isolated.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the oldest records in memory, spills the rest to disk when the buffer is full, and replays them on recovery', async () => {
    const { counts, hooks } = counting();
    const writer = new SpendWriter(db, logger, {
      ...hooks,
      maxBuffered: 5,
      flushIntervalMs: 10,
      spill: new SpendSpill(dir, logger),
    });
    db.down = true;
    for (let index = 0; index < 20; index += 1) writer.enqueue(record(index));
    expect(writer.depth).toBe(5);
    expect(counts.spilled).toBe(15);
    expect(readdirSync(dir)).toHaveLength(1);
    db.down = false;
    expect(await writer.drain()).toBe(0);
    expect(await rowCount()).toBe(20);
    expect(counts).toMatchObject({ replayed: 15, dropped: 0, depth: 0 });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('spills what the store did not take at shutdown, and the next process replays it at start', async () => {
    const first = new SpendWriter(db, logger, { flushIntervalMs: 10, spill: new SpendSpill(dir, logger) });
    db.down = true;
    for (let index = 0; index < 7; index += 1) first.enqueue(record(index));
    await first.stop(300);
    expect(readdirSync(dir)).toHaveLength(1);
    // A late record after stop (a request that finished during shutdown) is spilled too, not lost.
    first.enqueue(record(7));

    db.down = false;
    const { counts, hooks } = counting();
    const second = new SpendWriter(db, logger, { ...hooks, flushIntervalMs: 10, spill: new SpendSpill(dir, logger) });
    second.start();
    expect(await second.drain()).toBe(0);
    expect(await rowCount()).toBe(8);
    expect(counts.replayed).toBe(8);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes a journaled call’s trace when its row is replayed, and none for a batch line’s row', async () => {
    const first = new SpendWriter(db, logger, { flushIntervalMs: 10, spill: new SpendSpill(dir, logger) });
    db.down = true;
    first.enqueue(record(1), true);
    first.enqueue(record(2), false);
    await first.stop(300);
    expect(await traceIds()).toEqual([]);

    db.down = false;
    const second = new SpendWriter(db, logger, { flushIntervalMs: 10, spill: new SpendSpill(dir, logger) });
    second.start();
    expect(await second.drain()).toBe(0);
    expect(await rowCount()).toBe(2);
    expect(await traceIds()).toEqual(['rec-1']);
  });

  it('journals every record at once after a failed write, so a crash loses none, and the next process writes each once', async () => {
    const { counts, hooks } = counting();
    const crashed = new SpendWriter(db, logger, { ...hooks, flushIntervalMs: 10, spill: new SpendSpill(dir, logger) });
    crashed.enqueue(record(0));
    expect(await crashed.drain()).toBe(0);
    db.down = true;
    for (let index = 1; index < 4; index += 1) crashed.enqueue(record(index));
    // The first failed write moves what waited in memory to disk...
    expect(await crashed.drain(30)).toBe(0);
    expect(counts.failures).toBeGreaterThan(0);
    const journaled = () =>
      readdirSync(dir)
        .flatMap((name) => readFileSync(join(dir, name), 'utf8').trim().split('\n'))
        .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(journaled().sort()).toEqual(['rec-1', 'rec-2', 'rec-3']);
    // ...and while the store keeps failing, a new record is on disk before `enqueue` returns.
    crashed.enqueue(record(4));
    expect(crashed.depth).toBe(0);
    expect(journaled()).toContain('rec-4');
    // A crash: the writer is never stopped. The next process replays the journal; record 0 stays written once.
    db.down = false;
    const next = new SpendWriter(db, logger, { flushIntervalMs: 10, spill: new SpendSpill(dir, logger) });
    next.start();
    expect(await next.drain()).toBe(0);
    const { rows } = await isolated.db.query<{ id: string }>('SELECT id FROM gw_spend ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual(['rec-0', 'rec-1', 'rec-2', 'rec-3', 'rec-4']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('retries a failed batch without writing it twice, and drops only when there is no spill file', async () => {
    const { counts, firstFailure, hooks } = counting();
    const writer = new SpendWriter(db, logger, { ...hooks, maxBuffered: 2, flushIntervalMs: 10 });
    db.down = true;
    for (let index = 0; index < 3; index += 1) writer.enqueue(record(index));
    expect(counts.dropped).toBe(1);
    await firstFailure;
    expect(counts.failures).toBeGreaterThan(0);
    db.down = false;
    writer.enqueue(record(0));
    expect(await writer.drain()).toBe(0);
    expect(await rowCount()).toBe(2);
  });

  it('sets aside a record the store refuses for its data, writing every other record of its batch and later ones', async () => {
    const rejected: number[] = [];
    const writer = new SpendWriter(db, logger, {
      flushIntervalMs: 10,
      spill: new SpendSpill(dir, logger),
      onRejected: (count) => rejected.push(count),
    });
    // NaN serialises to null, which cost_usd refuses (23502): before, this held the head of the queue forever.
    const poisoned = { ...record(1), costUsd: Number.NaN };
    for (const entry of [record(0), poisoned, record(2)]) writer.enqueue(entry);
    expect(await writer.drain()).toBe(0);
    writer.enqueue(record(3));
    expect(await writer.drain()).toBe(0);
    expect(await rowCount()).toBe(3);
    expect(rejected).toEqual([1]);
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^rejected-[0-9a-z]+\.ndjson$/);
    expect(JSON.parse(readFileSync(join(dir, files[0] ?? ''), 'utf8').trim())).toMatchObject({ id: 'rec-1' });
    // The rejected file is not a spill: a restart does not replay it into the store again.
    const restarted = new SpendWriter(db, logger, { flushIntervalMs: 10, spill: new SpendSpill(dir, logger) });
    restarted.start();
    expect(await restarted.drain()).toBe(0);
    expect(await rowCount()).toBe(3);
  });
});
