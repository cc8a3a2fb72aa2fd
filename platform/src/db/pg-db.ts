import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, Queryable, QueryResult } from './db.js';

export interface PgDbOptions {
  connectionString: string;
  /** Every connection of this pool uses this schema first (test isolation, multi-service databases). */
  searchPath?: string;
  max?: number;
  /** Fail fast when Postgres is down instead of queueing requests behind a dead pool. */
  connectionTimeoutMs?: number;
  statementTimeoutMs?: number;
  onError?: (error: Error) => void;
}

// int8 (bigint) and numeric come back as strings by default; counts and sums we store fit safely in a double.
pg.types.setTypeParser(20, (value) => Number(value));
pg.types.setTypeParser(1700, (value) => Number(value));

/** `Db` over a `pg` connection pool: the production store. */
export class PgDb implements Db {
  readonly kind = 'pg' as const;
  private readonly pool: pg.Pool;

  constructor(options: PgDbOptions) {
    const settings: string[] = [];
    if (options.searchPath) settings.push(`-c search_path=${options.searchPath}`);
    if (options.statementTimeoutMs) settings.push(`-c statement_timeout=${options.statementTimeoutMs}`);
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max ?? 10,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 3000,
      ...(settings.length > 0 ? { options: settings.join(' ') } : {}),
    });
    // An idle client losing its connection must not crash the process; the next query reports the outage.
    this.pool.on('error', (error) => options.onError?.(error));
  }

  async query<Row extends object = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<QueryResult<Row>> {
    const result = await this.pool.query<Row>(
      params.length > 0 ? { name: this.statementName(sql), text: sql, values: params as unknown[] } : sql,
    );
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  }

  private readonly statementNames = new Map<string, string>();

  /**
   * Parameterised queries run as named prepared statements: Postgres parses and plans each distinct statement once per
   * connection instead of on every hot-path call (the per-request key lookup, spend batches). Names derive from the
   * SQL text, so the same text always maps to the same statement.
   */
  private statementName(sql: string): string {
    let name = this.statementNames.get(sql);
    if (!name) {
      name = `gw_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
      this.statementNames.set(sql, name);
    }
    return name;
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const tx: Queryable = {
        query: async <Row extends object>(sql: string, params: readonly unknown[] = []) => {
          const result = await client.query<Row>(sql, params as unknown[]);
          return { rows: result.rows, rowCount: result.rowCount ?? 0 };
        },
      };
      const value = await work(tx);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async ping(): Promise<boolean> {
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
