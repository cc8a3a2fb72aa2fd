import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestDb } from '@gw/testkit';
import { migrate, migrationStatus, type Migration } from './migrations.js';

const migrations: Migration[] = [
  {
    version: 1,
    name: 'notes',
    sql: 'CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());\n-- a comment; with a semicolon\nCREATE INDEX notes_body ON notes (body);',
  },
  {
    version: 2,
    name: 'fn',
    sql: "CREATE FUNCTION shout(t text) RETURNS text AS $$ SELECT upper(t) || ';' $$ LANGUAGE sql; INSERT INTO notes (body) VALUES ('it''s; fine');",
  },
];

/** One suite, run against both `Db` implementations: the same queries and transactions must behave the same. */
export function describeDbSuite(name: string, factory: () => Promise<TestDb>): void {
  describe(`Db conformance: ${name}`, () => {
    let store: TestDb;
    beforeEach(async () => {
      store = await factory();
    });
    afterEach(async () => {
      await store.dispose();
    });

    it('applies numbered migrations once and reports applied vs expected', async () => {
      const first = await migrate(store.db, 'demo', migrations);
      expect(first).toEqual({ service: 'demo', applied: 2, expected: 2, upToDate: true });
      await migrate(store.db, 'demo', migrations);
      const { rows } = await store.db.query<{ body: string }>('SELECT body FROM notes');
      expect(rows).toEqual([{ body: "it's; fine" }]);
      const shouted = await store.db.query<{ value: string }>('SELECT shout($1) AS value', ['hi']);
      expect(shouted.rows[0]?.value).toBe('HI;');
      expect(await migrationStatus(store.db, 'demo', 3)).toEqual({
        service: 'demo',
        applied: 2,
        expected: 3,
        upToDate: false,
      });
    });

    it('reports zero applied before any migration ran', async () => {
      expect(await migrationStatus(store.db, 'nothing', 1)).toMatchObject({ applied: 0, upToDate: false });
    });

    it('commits a transaction and rolls back a failed one', async () => {
      await migrate(store.db, 'demo', migrations);
      await store.db.transaction(async (tx) => {
        await tx.query('INSERT INTO notes (body) VALUES ($1)', ['kept']);
      });
      await expect(
        store.db.transaction(async (tx) => {
          await tx.query('INSERT INTO notes (body) VALUES ($1)', ['discarded']);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      const { rows } = await store.db.query<{ body: string }>('SELECT body FROM notes ORDER BY id');
      expect(rows.map((row) => row.body)).toEqual(["it's; fine", 'kept']);
    });

    it('returns row counts for writes and numbers for bigint aggregates', async () => {
      await migrate(store.db, 'demo', migrations);
      const inserted = await store.db.query('INSERT INTO notes (body) VALUES ($1), ($2)', ['a', 'b']);
      expect(inserted.rowCount).toBe(2);
      const { rows } = await store.db.query<{ total: number }>('SELECT count(*)::bigint AS total FROM notes');
      expect(rows[0]?.total).toBe(3);
      expect(await store.db.ping()).toBe(true);
    });

    it('runs concurrent migrations from two boots without applying twice', async () => {
      await Promise.all([migrate(store.db, 'race', migrations), migrate(store.db, 'race', migrations)]);
      const { rows } = await store.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM gw_schema_migrations WHERE service = 'race'",
      );
      expect(rows[0]?.n).toBe(2);
    });
  });
}
