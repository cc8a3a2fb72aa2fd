import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Keyring, ManualClock, type Db } from '@gw/platform';
import { createIsolatedPgDb, createMemoryPgliteDb, testDbUrl, type TestDb } from '@gw/testkit';
import { RowUnreadableError } from '../src/stash/durable-tier.js';
import { migrateOptimizer, optimizerMigrationsDirectory, optimizerServiceName } from '../src/stash/migrations.js';
import { Stash } from '../src/stash/stash.js';
import { contentKey } from './support/test-app.js';

const stores: Array<[string, () => Promise<TestDb>]> = [
  ['Postgres', () => createIsolatedPgDb(testDbUrl(process.env))],
  ['PGlite', () => createMemoryPgliteDb([{ service: optimizerServiceName, directory: optimizerMigrationsDirectory }])],
];

const ada = { tenant: 'default', user: 'ada', team: 'core' };

describe.each(stores)('durable stash on %s', (_name, open) => {
  let store: TestDb;
  let clock: ManualClock;
  let stash: Stash;

  beforeEach(async () => {
    store = await open();
    await migrateOptimizer(store.db);
    clock = new ManualClock();
    stash = new Stash({ clock, writeTimeoutMs: 2_000 });
    stash.configure({ db: store.db, contentKey, contentMode: 'full' });
  });
  afterEach(async () => {
    await store.dispose();
  });

  it('commits the span before answering a handle and reads it back on a fresh replica', async () => {
    expect(stash.state()).toBe('ready');
    const content = 'line one\nline two\n';
    const handle = await stash.put(ada, content);
    expect(handle).toMatch(/^ctx_[A-Za-z0-9_-]{32}$/);
    const replica = new Stash({ clock });
    replica.configure({ db: store.db, contentKey, contentMode: 'full' });
    const entry = await replica.read(handle as string);
    expect(entry).toMatchObject({
      handle,
      content,
      owner: ada,
      totalLines: 2,
      totalChars: content.length,
      createdAt: clock.now(),
      expiresAt: clock.now() + 4 * 3_600_000,
      ceilingAt: clock.now() + 48 * 3_600_000,
    });
  });

  it('stores ciphertext only, bound to its handle', async () => {
    const handle = (await stash.put(ada, 'SECRET_TOKEN=hunter2')) as string;
    const { rows } = await store.db.query<{ sealed: string; user_id: string; total_chars: number }>(
      'SELECT sealed, user_id, total_chars FROM optimizer_stash WHERE handle = $1',
      [handle],
    );
    expect(rows[0]?.sealed).not.toContain('hunter2');
    expect(rows[0]?.sealed.startsWith('v1.')).toBe(true);
    expect(rows[0]).toMatchObject({ user_id: 'ada', total_chars: 20 });
    // Moving a row's ciphertext under another handle does not decrypt.
    const other = (await stash.put(ada, 'something else')) as string;
    await store.db.query('UPDATE optimizer_stash SET sealed = $1 WHERE handle = $2', [rows[0]?.sealed, other]);
    const replica = new Stash({ clock });
    replica.configure({ db: store.db, contentKey, contentMode: 'full' });
    await expect(replica.read(other)).rejects.toBeInstanceOf(RowUnreadableError);
  });

  it('refuses another owner’s row on its plaintext owner, before decrypting it', async () => {
    const handle = (await stash.put(ada, 'owned bytes')) as string;
    const replica = new Stash({ clock });
    replica.configure({ db: store.db, contentKey, contentMode: 'full' });
    const decrypt = vi.spyOn(Keyring.prototype, 'decryptString');
    try {
      const seen: unknown[] = [];
      expect(await replica.read(handle, (owner) => (seen.push(owner), false))).toBeNull();
      expect(seen).toEqual([ada]);
      expect(decrypt).not.toHaveBeenCalled();
      // Refused rows do not enter the memory tier either: the owner's read still goes to the store and decrypts.
      expect((await replica.read(handle, (owner) => owner.user === 'ada'))?.content).toBe('owned bytes');
      expect(decrypt).toHaveBeenCalledTimes(1);
      expect(await replica.read(handle, () => false)).toBeNull();
    } finally {
      decrypt.mockRestore();
    }
  });

  it('re-storing the same content restarts its window under the same handle', async () => {
    const first = await stash.put(ada, 'same bytes');
    clock.advance(3 * 3_600_000);
    const second = await stash.put(ada, 'same bytes');
    expect(second).toBe(first);
    clock.advance(3 * 3_600_000);
    expect(await stash.read(first as string)).not.toBeNull();
    // Another owner gets another handle for the same bytes.
    expect(await stash.put({ tenant: 'default', user: 'bob' }, 'same bytes')).not.toBe(first);
  });

  it('re-persists a replayed handle only when it is missing or near the end of its window', async () => {
    const port = stash.forOwner(ada);
    const handle = (await port.put('replayed output')) as string;
    const expiresAt = async () => {
      const row = (
        await store.db.query<{ expires_at: Date | string }>(
          'SELECT expires_at FROM optimizer_stash WHERE handle = $1',
          [handle],
        )
      ).rows[0];
      return row ? new Date(row.expires_at).getTime() : undefined;
    };
    const written = await expiresAt();
    clock.advance(60 * 60_000);
    expect(await port.refresh?.(handle, 'replayed output')).toBe(true);
    expect(await expiresAt()).toBe(written);
    clock.advance(2 * 60 * 60_000 + 1);
    expect(await port.refresh?.(handle, 'replayed output')).toBe(true);
    expect(await expiresAt()).not.toBe(written);
    // A replica that never saw it restores the row; content that does not match the handle is refused.
    await store.db.query('DELETE FROM optimizer_stash WHERE handle = $1', [handle]);
    const replica = new Stash({ clock });
    replica.configure({ db: store.db, contentKey, contentMode: 'full' });
    expect(await replica.forOwner(ada).refresh?.(handle, 'replayed output')).toBe(true);
    expect(await expiresAt()).toBeDefined();
    expect(await replica.forOwner(ada).refresh?.(handle, 'other bytes')).toBe(false);
  });

  it('lists only the requesting user’s live rows for recall, newest first', async () => {
    await stash.put(ada, 'ada old');
    clock.advance(1_000);
    await stash.put(ada, 'ada new');
    await stash.put({ tenant: 'default', user: 'bob' }, 'bob row');
    await stash.put({ tenant: 'acme', user: 'ada' }, 'other tenant');
    const rows = await stash.listForUser({ tenant: 'default', user: 'ada' }, 10);
    expect(rows.map((row) => row.content)).toEqual(['ada new', 'ada old']);
    clock.advance(5 * 3_600_000);
    expect(await stash.listForUser({ tenant: 'default', user: 'ada' }, 10)).toEqual([]);
    expect(await stash.sweep()).toBe(4);
  });

  it('keeps the bytes of a span whose row the store refuses for its values, and stays open for everyone else', async () => {
    const outcomes: string[] = [];
    const guarded = new Stash({ clock, writeTimeoutMs: 2_000, onWrite: (outcome) => outcomes.push(outcome) });
    guarded.configure({ db: store.db, contentKey, contentMode: 'full' });
    // Postgres text cannot hold U+0000: the insert fails with SQLSTATE 22021, a data error, not a store fault.
    expect(await guarded.put({ tenant: 'default', user: 'a\u0000b' }, 'refused row')).toBeNull();
    expect(guarded.state()).toBe('ready');
    expect(await guarded.put(ada, 'next caller')).toMatch(/^ctx_/);
    expect(outcomes).toEqual(['rejected', 'stored']);
  });

  it('keeps the bytes of an output no durable row could return exactly (a lone surrogate), never minting a handle', async () => {
    const outcomes: string[] = [];
    const guarded = new Stash({ clock, writeTimeoutMs: 2_000, onWrite: (outcome) => outcomes.push(outcome) });
    guarded.configure({ db: store.db, contentKey, contentMode: 'full' });
    expect(await guarded.put(ada, 'bad byte: \ud800 end')).toBeNull();
    expect(guarded.state()).toBe('ready');
    const exact = 'paired: \ud83d\ude00 and NUL \u0000 kept';
    const handle = (await guarded.put(ada, exact)) as string;
    const replica = new Stash({ clock });
    replica.configure({ db: store.db, contentKey, contentMode: 'full' });
    expect((await replica.read(handle))?.content).toBe(exact);
    expect(outcomes).toEqual(['rejected', 'stored']);
  });

  it('content mode off stops new rows but keeps earlier ones readable', async () => {
    const handle = (await stash.put(ada, 'before off')) as string;
    stash.configure({ db: store.db, contentKey, contentMode: 'off' });
    expect(stash.state()).toBe('content_disabled');
    expect(await stash.put(ada, 'after off')).toBeNull();
    expect((await stash.read(handle))?.content).toBe('before off');
    expect(await stash.listForUser({ tenant: 'default', user: 'ada' }, 10)).toHaveLength(1);
  });
});

describe('retrieval-store states', () => {
  it('is unconfigured without a store and content_disabled without a content key', async () => {
    const clock = new ManualClock();
    const stash = new Stash({ clock });
    stash.configure({ db: null, contentKey, contentMode: 'full' });
    expect(stash.state()).toBe('unconfigured');
    expect(await stash.put(ada, 'x')).toBeNull();
    const store = await createMemoryPgliteDb();
    stash.configure({ db: store.db, contentKey: null, contentMode: 'full' });
    expect(stash.state()).toBe('content_disabled');
    await store.dispose();
  });

  it.each([
    ['a connection error', new Error('Connection terminated unexpectedly')],
    [
      'an admin shutdown (SQLSTATE 57P01)',
      Object.assign(new Error('terminating connection due to administrator command'), {
        severity: 'FATAL',
        code: '57P01',
      }),
    ],
    [
      'a disk full (SQLSTATE 53100)',
      Object.assign(new Error('could not extend file'), { severity: 'ERROR', code: '53100' }),
    ],
  ])('enters the cooldown after %s, which is the store and not the caller', async (_label, fault) => {
    const failing: Db = {
      kind: 'pg',
      query: () => Promise.reject(fault),
      transaction: () => Promise.reject(fault),
      ping: async () => false,
      exec: async () => undefined,
      close: async () => undefined,
    };
    const clock = new ManualClock();
    const stash = new Stash({ clock, writeTimeoutMs: 2_000 });
    stash.configure({ db: failing, contentKey, contentMode: 'full' });
    expect(await stash.put(ada, 'during an outage')).toBeNull();
    expect(stash.state()).toBe('cooldown');
  });

  it('enters a five-minute cooldown after a write misses its bound, keeping the bytes', async () => {
    const store = await createMemoryPgliteDb();
    await migrateOptimizer(store.db);
    // While `hold` is set, a query waits for it to resolve: a write that outlasts the stash's bound, for as long as
    // the test needs, and every query is kept so the test can wait for the held one to finish before closing.
    let hold: Promise<void> | null = null;
    const queries: Promise<unknown>[] = [];
    const slow: Db = {
      kind: 'pg',
      query: async <Row extends object>(sql: string, params?: readonly unknown[]) => {
        const run = (async () => {
          await hold;
          return store.db.query<Row>(sql, params);
        })();
        queries.push(run.catch(() => undefined));
        return run;
      },
      transaction: (work) => store.db.transaction(work),
      ping: () => store.db.ping(),
      exec: async () => undefined,
      close: async () => undefined,
    };
    const clock = new ManualClock();
    const outcomes: string[] = [];
    // The bound is real time. The held write misses it whatever its length; the last write must finish inside it on a
    // loaded machine (two test files at once, each store on a thread of its own), which 20 ms did not always allow.
    const stash = new Stash({ clock, writeTimeoutMs: 1_000, onWrite: (outcome) => outcomes.push(outcome) });
    stash.configure({ db: slow, contentKey, contentMode: 'full' });
    let release: () => void = () => undefined;
    hold = new Promise((resolve) => {
      release = resolve;
    });
    expect(await stash.put(ada, 'slow write')).toBeNull();
    expect(stash.state()).toBe('cooldown');
    release();
    hold = null;
    expect(await stash.put(ada, 'during cooldown')).toBeNull();
    clock.advance(5 * 60_000 - 1);
    expect(stash.state()).toBe('cooldown');
    clock.advance(1);
    expect(stash.state()).toBe('ready');
    expect(await stash.put(ada, 'after cooldown')).toMatch(/^ctx_/);
    expect(outcomes).toEqual(['failed', 'refused', 'stored']);
    await Promise.all(queries);
    await store.dispose();
  });
});
