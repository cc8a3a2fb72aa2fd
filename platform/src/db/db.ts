/**
 * The one durable store interface. Two implementations run the same SQL: `pg` Pool (GW_SPEND_DB_URL set) and
 * PGlite (embedded WASM Postgres under GW_DATA_DIR). Parameters use `$1`-style placeholders.
 */
export interface Queryable {
  query<Row extends object = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<QueryResult<Row>>;
}

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Db extends Queryable {
  /** Runs a multi-statement SQL script without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `work` in one transaction; commits on resolve, rolls back on throw. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** `pg` or `pglite`, for health output. */
  readonly kind: 'pg' | 'pglite';
  /** True when the store answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
