import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { workerExecArgv, type PgliteDb } from './pglite-db.js';
import { isDataRejection, isStoreUnavailable, sqlStateOf } from './store-errors.js';

/** What crosses between a service's thread and the embedded store's own (pglite-worker.ts). */
describe('the embedded store on its own thread', () => {
  const opened: TestDb[] = [];
  const openStore = async () => {
    const store = await createMemoryPgliteDb();
    opened.push(store);
    return store.db as PgliteDb;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.dispose()));
  });

  it('hands parameters and rows across as PGlite takes and gives them', async () => {
    const store = await openStore();
    const at = new Date('2026-11-27T12:00:00.000Z');
    const { rows } = await store.query<{ at: Date; bytes: Uint8Array; big: number; doc: unknown; many: string[] }>(
      'SELECT $1::timestamptz AS at, $2::bytea AS bytes, $3::bigint AS big, $4::jsonb AS doc, $5::text[] AS many',
      [at, Buffer.from([1, 2, 255]), 9_007_199_254_740_991n, { nested: [1, 'two'] }, ['a', 'b']],
    );
    expect(rows[0]?.at).toEqual(at);
    expect([...(rows[0]?.bytes ?? [])]).toEqual([1, 2, 255]);
    expect(rows[0]?.doc).toEqual({ nested: [1, 'two'] });
    expect(rows[0]?.many).toEqual(['a', 'b']);
    expect(Number(rows[0]?.big)).toBe(9_007_199_254_740_991);
  });

  it('keeps a refused statement’s SQLSTATE and details, so a refusal is told from an outage', async () => {
    const store = await openStore();
    await store.exec('CREATE TABLE once (id int PRIMARY KEY)');
    await store.query('INSERT INTO once VALUES (1)');
    const refused = await store.query('INSERT INTO once VALUES (1)').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(sqlStateOf(refused)).toBe('23505');
    expect(refused).toMatchObject({ constraint: 'once_pkey', severity: 'ERROR' });
    expect(isDataRejection(refused)).toBe(true);
    expect(isStoreUnavailable(refused)).toBe(false);
  });

  it('fails every request as an outage once its thread has stopped, and never hangs', async () => {
    const store = await openStore();
    const worker = (store as unknown as { worker: { terminate(): Promise<number> } }).worker;
    const inFlight = store.query('SELECT pg_sleep(0.2)').catch((error: unknown) => error);
    await worker.terminate();
    for (const failure of [await inFlight, await store.query('SELECT 1').catch((error: unknown) => error)]) {
      expect(failure).toMatchObject({ code: '57P01', severity: 'FATAL' });
      expect(isStoreUnavailable(failure)).toBe(true);
    }
    expect(await store.ping()).toBe(false);
    await store.close();
  });

  it('runs a transaction’s statements inside it while others wait for it to end', async () => {
    const store = await openStore();
    await store.exec('CREATE TABLE ledger (entry text)');
    let outsideSaw: unknown;
    await store.transaction(async (tx) => {
      await tx.query('INSERT INTO ledger VALUES ($1)', ['inside']);
      // Queued behind the open transaction: it runs once the transaction has committed.
      const outside = store.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger');
      await tx.query('INSERT INTO ledger VALUES ($1)', ['inside too']);
      void outside.then(({ rows }) => (outsideSaw = rows[0]?.n));
    });
    await expect.poll(() => outsideSaw).toBe(2);
  });

  /** A script that opens a store, reads from it and never closes it, run by a Node of its own. */
  const readingScript = `
      import { PgliteDb } from ${JSON.stringify(fileURLToPath(new URL('../../dist/db/pglite-db.js', import.meta.url)))};
      const store = await PgliteDb.open();
      const { rows } = await store.query('SELECT 41 + 1 AS answer');
      process.stdout.write(String(rows[0].answer));
    `;
  const runNode = async (args: string[]) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    return { code, output };
  };

  it('does not keep a process alive once nothing is asked of it', async () => {
    // The store is never closed: the process must still end, with the read's answer.
    const folder = await mkdtemp(join(tmpdir(), 'gw-pglite-exit-'));
    const path = join(folder, 'script.mjs');
    await writeFile(path, readingScript);
    const ran = await runNode([path]);
    await rm(folder, { recursive: true, force: true });
    expect(ran).toEqual({ code: 0, output: '42' });
  });

  it('opens from a script given on the command line, whose --input-type its thread does not inherit', async () => {
    expect(await runNode(['--input-type=module', '--eval', readingScript])).toEqual({ code: 0, output: '42' });
    expect(await runNode(['--input-type', 'module', '--eval', readingScript])).toEqual({ code: 0, output: '42' });
  });
});

describe('workerExecArgv', () => {
  it.each([
    [
      ['--input-type=module', '-e', 'code'],
      ['-e', 'code'],
    ],
    [['--input-type', 'module', '--enable-source-maps'], ['--enable-source-maps']],
    [
      ['--cpu-prof', '--cpu-prof-dir=/tmp/p', '--max-old-space-size=512'],
      ['--cpu-prof', '--cpu-prof-dir=/tmp/p', '--max-old-space-size=512'],
    ],
    [[], []],
  ])('keeps the options a worker can run with: %j → %j', (given, kept) => {
    expect(workerExecArgv(given)).toEqual(kept);
  });
});
