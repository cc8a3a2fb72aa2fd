import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable, QueryResult } from './db.js';
import { unpackDataDir } from './unpack-data-dir.js';

/**
 * `Db` over PGlite (Postgres compiled to WASM, in-process): the zero-configuration embedded store. It runs the same
 * SQL as production. PGlite has one connection, so it serialises queries itself; transactions hold it exclusively.
 */
/**
 * Statements that cannot change what a cache keyed on `changes` holds: reads, and the hot path's append-only
 * ledgers (spend rows and traces, which no other table follows by trigger or cascade).
 */
const unchanging = /^\s*(?:SELECT\b|INSERT INTO gw_(?:spend|traces)\b)/i;

export class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  /** See `Db.changes`: every other statement, script and transaction moves it, before it runs and after. */
  changes = 0;

  private constructor(private readonly database: PGlite) {}

  /**
   * `dataDir` undefined keeps everything in memory (tests). `template` reads a tarball of an initialised database
   * (embedded-template.ts), which fills a data directory that holds none yet instead of running initdb; it is only
   * called then, so a restart does not read the template it would not use.
   */
  static async open(dataDir?: string, template?: () => Promise<Uint8Array | undefined>): Promise<PgliteDb> {
    if (!dataDir) return new PgliteDb(await PGlite.create());
    if (template && !existsSync(join(dataDir, 'PG_VERSION'))) {
      const archive = await template();
      if (archive) await unpackDataDir(archive, dataDir);
    }
    return new PgliteDb(await PGlite.create({ dataDir }));
  }

  async query<Row extends object = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<QueryResult<Row>> {
    if (unchanging.test(sql)) {
      const result = await this.database.query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    }
    return this.changing(async () => {
      const result = await this.database.query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    });
  }

  async exec(sql: string): Promise<void> {
    await this.changing(() => this.database.exec(sql));
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.changing(() =>
      this.database.transaction(async (transaction) => {
        const tx: Queryable = {
          query: async <Row extends object>(sql: string, params: readonly unknown[] = []) => {
            const result = await transaction.query<Row>(sql, params as unknown[]);
            return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
          },
        };
        return work(tx);
      }),
    );
  }

  /**
   * Moves `changes` before the work (a read answered after this point may already see it) and after it, whatever
   * the outcome (a read that overtook it and was answered before it landed must not outlive it).
   */
  private async changing<T>(work: () => Promise<T>): Promise<T> {
    this.changes += 1;
    try {
      return await work();
    } finally {
      this.changes += 1;
    }
  }

  async ping(): Promise<boolean> {
    try {
      await this.database.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /** The whole database as a gzipped tarball, the form `open` takes as a template. */
  async dumpDataDir(): Promise<Blob> {
    return this.database.dumpDataDir('gzip');
  }

  async close(): Promise<void> {
    await this.database.close();
  }
}
