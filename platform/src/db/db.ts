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
  /**
   * Only on a store whose every writer is this process (the embedded store): a counter that moves before and after
   * every statement that may change stored data. A value read while it stays unchanged is still what the store holds,
   * so an in-process cache keyed on it is exact (docs/adr/0030-embedded-store-key-reads.md). Absent on a shared
   * server, where other processes write.
   */
  readonly changes?: number;
  close(): Promise<void>;
}
