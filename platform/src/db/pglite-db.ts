import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable, QueryResult } from './db.js';

/**
 * `Db` over PGlite (Postgres compiled to WASM, in-process): the zero-configuration embedded store. It runs the same
 * SQL as production. PGlite has one connection, so it serialises queries itself; transactions hold it exclusively.
 */
export class PgliteDb implements Db {
  readonly kind = 'pglite' as const;

  private constructor(private readonly database: PGlite) {}

  /**
   * `dataDir` undefined keeps everything in memory (tests). `template`, a tarball of an initialised database, fills
   * a data directory that holds none yet instead of running initdb (embedded-template.ts).
   */
  static async open(dataDir?: string, template?: Blob): Promise<PgliteDb> {
    if (!dataDir) return new PgliteDb(await PGlite.create());
    const loadDataDir = template && !existsSync(join(dataDir, 'PG_VERSION')) ? template : undefined;
    return new PgliteDb(await PGlite.create({ dataDir, ...(loadDataDir ? { loadDataDir } : {}) }));
  }

  async query<Row extends object = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<QueryResult<Row>> {
    const result = await this.database.query<Row>(sql, params as unknown[]);
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
  }

  async exec(sql: string): Promise<void> {
    await this.database.exec(sql);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.database.transaction(async (transaction) => {
      const tx: Queryable = {
        query: async <Row extends object>(sql: string, params: readonly unknown[] = []) => {
          const result = await transaction.query<Row>(sql, params as unknown[]);
          return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
        },
      };
      return work(tx);
    });
  }

  async ping(): Promise<boolean> {
    try {
      await this.database.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.database.close();
  }
}
