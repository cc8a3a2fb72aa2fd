import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '@gw/platform';
import type { TestDb } from '@gw/testkit';
import { migrateGateway } from '../src/compose.js';
import { KeyStore, lookupStatement } from '../src/identity/keys/key.store.js';
import { testStores } from './helpers.js';

describe('lookupStatement', () => {
  it('pads a batch up to the next prepared arity by repeating its last hash', () => {
    const { sql, params } = lookupStatement(['a', 'b', 'c']);
    expect(params).toEqual(['a', 'b', 'c', 'c']);
    expect(sql).toMatch(/WHERE k\.key_hash IN \(\$1, \$2, \$3, \$4\)$/);
    expect(lookupStatement(['only']).params).toEqual(['only']);
    expect(lookupStatement(Array.from({ length: 129 }, (_, index) => `h${index}`)).params).toHaveLength(256);
  });

  it('refuses an empty batch and one larger than the largest arity', () => {
    expect(() => lookupStatement([])).toThrow(RangeError);
    expect(() => lookupStatement(Array.from({ length: 257 }, (_, index) => `h${index}`))).toThrow(RangeError);
  });
});

describe.each(testStores)('per-request key lookup on %s', (_name, open) => {
  let store: TestDb;
  let keys: KeyStore;
  beforeEach(async () => {
    store = await open();
    await migrateGateway(store.db);
    keys = new KeyStore(store.db, systemClock);
  });
  afterEach(async () => {
    await store.dispose();
  });

  async function mint(count: number) {
    const minted: Array<{ key: string; id: string }> = [];
    for (let index = 0; index < count; index += 1) {
      const { key, record } = await keys.create({
        type: 'client',
        source: 'admin',
        user: `dev${index}@example.com`,
        team: 'platform',
        createdBy: 'test',
      });
      minted.push({ key, id: record.id });
    }
    return minted;
  }

  it('answers every read of one turn, whatever the batch size, and misses unknown keys', async () => {
    const minted = await mint(5);
    // Batches of 1, 3 and 7 reads (padded to 1, 4 and 8), each run past the five calls after which Postgres may
    // switch a prepared statement to its generic plan, so both plans are exercised.
    for (const size of [1, 3, 7]) {
      for (let round = 0; round < 7; round += 1) {
        const wanted = Array.from({ length: size }, (_, index) =>
          index < 5 ? minted[(index + round) % 5].key : `gw_unknown_${round}_${index}`,
        );
        const found = await Promise.all(wanted.map((key) => keys.lookup(key)));
        found.forEach((lookup, index) => {
          if (index < 5) expect(lookup?.record.id).toBe(minted[(index + round) % 5].id);
          else expect(lookup).toBeNull();
        });
      }
    }
  });

  it('splits a burst beyond 256 distinct keys into several queries and sees a deactivated holder', async () => {
    const [first] = await mint(1);
    await store.db.query('INSERT INTO gw_users (user_id, active, updated_at) VALUES ($1, false, now())', [
      'dev0@example.com',
    ]);
    const burst = [first.key, ...Array.from({ length: 300 }, (_, index) => `gw_unknown_${index}`)];
    const found = await Promise.all(burst.map((key) => keys.lookup(key)));
    expect(found[0]).toMatchObject({ record: { id: first.id }, userActive: false });
    expect(found.slice(1).every((lookup) => lookup === null)).toBe(true);
  });

  // On the embedded store, reads are answered from memory while nothing changed the store: every change must still be
  // seen by the very next lookup (on Postgres every lookup reads the store anyway).
  it('sees a revocation, a deactivated holder and a newly minted key on the next lookup after repeated reads', async () => {
    const [first, second] = await mint(2);
    const unknown = 'gw_minted_later_0000000000000000000000';
    for (let read = 0; read < 3; read += 1) {
      expect((await keys.lookup(first.key))?.record.status).toBe('active');
      expect((await keys.lookup(second.key))?.userActive).toBe(true);
      expect(await keys.lookup(unknown)).toBeNull();
    }
    await store.db.query('UPDATE gw_keys SET revoked_at = now() WHERE id = $1', [first.id]);
    expect((await keys.lookup(first.key))?.record.status).toBe('revoked');
    await store.db.transaction(async (tx) => {
      await tx.query('INSERT INTO gw_users (user_id, active, updated_at) VALUES ($1, false, now())', [
        'dev1@example.com',
      ]);
    });
    expect((await keys.lookup(second.key))?.userActive).toBe(false);
    const minted = await keys.create({
      type: 'client',
      source: 'admin',
      user: 'late@example.com',
      team: 'platform',
      createdBy: 'test',
    });
    expect(await keys.lookup(unknown)).toBeNull();
    expect((await keys.lookup(minted.key))?.record.id).toBe(minted.record.id);
    // A spend row written in between changes nothing a lookup reads, and the next lookup still answers right.
    await store.db.query("INSERT INTO gw_traces (id) SELECT 'x' WHERE false");
    expect((await keys.lookup(first.key))?.record.status).toBe('revoked');
  });
});
