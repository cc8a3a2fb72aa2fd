import { randomBytes } from 'node:crypto';
import type { Db } from '@gw/platform';
import { PgliteDb } from '@gw/platform/pglite';
import { PgDb } from '@gw/platform/postgres';

export interface TestDb {
  db: Db;
  /** Drops the isolated schema (Postgres) and closes the store. */
  dispose(): Promise<void>;
}

/** A real Postgres connection isolated in a fresh schema, so tests never see each other's rows. */
export async function createIsolatedPgDb(url: string): Promise<TestDb & { schema: string; url: string }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new PgDb({ connectionString: url, max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const db = new PgDb({ connectionString: url, searchPath: schema, max: 5 });
  return {
    db,
    schema,
    url,
    dispose: async () => {
      await db.close();
      const cleanup = new PgDb({ connectionString: url, max: 1 });
      await cleanup.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await cleanup.close();
    },
  };
}

/** The embedded store in memory: nothing on disk, nothing shared, gone when disposed. */
export async function createMemoryPgliteDb(): Promise<TestDb> {
  const db = await PgliteDb.open();
  return { db, dispose: () => db.close() };
}
