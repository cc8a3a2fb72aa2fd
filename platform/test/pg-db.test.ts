import { describe, expect, it } from 'vitest';
import { createIsolatedPgDb, testDbUrl } from '@gw/testkit';
import { describeDbSuite } from '../src/db/db.suite.js';
import { PgDb } from '../src/db/pg-db.js';

describeDbSuite('Postgres (pg Pool)', () => createIsolatedPgDb(testDbUrl(process.env)));

describe('PgDb outage', () => {
  it('rejects promptly and pings false when Postgres is unreachable', async () => {
    const db = new PgDb({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMs: 500 });
    const started = Date.now();
    await expect(db.query('SELECT 1')).rejects.toThrow();
    expect(await db.ping()).toBe(false);
    expect(Date.now() - started).toBeLessThan(3000);
    await db.close();
  });
});
