/**
 * The messages between `PgliteDb` (the service's thread) and the thread that runs PGlite (pglite-worker.ts). Every
 * request carries an id its one reply names; a transaction is opened by `begin`, addressed by the begin's id, and
 * ended by `end`. Values cross by structured clone: parameters and rows are what PGlite takes and gives (strings,
 * numbers, bigints, dates, byte arrays, JSON values).
 */

/** What the worker is started with (`workerData`). */
export interface PgliteWorkerOptions {
  /** The data directory; absent, the database lives in memory. */
  dataDir?: string;
  /**
   * A gzipped data directory archive (embedded-template.ts) that fills `dataDir` when it holds no database yet, or
   * the memory of a store without one; a path where no file is means none.
   */
  templatePath?: string;
}

export type PgliteRequest =
  | { id: number; op: 'query'; sql: string; params: readonly unknown[]; transaction?: number }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; transaction: number; commit: boolean }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

/** A query's answer, in the `QueryResult` shape the `Db` interface returns. */
export interface PgliteRows {
  rows: Record<string, unknown>[];
  rowCount: number;
}

/** An error as it crosses the threads: its message and name, and the SQLSTATE fields a database error carries. */
export interface PgliteFailure {
  message: string;
  name: string;
  fields: Record<string, string | number>;
}

export type PgliteReply =
  { id: number; ok: true; value?: PgliteRows | Uint8Array } | { id: number; ok: false; error: PgliteFailure };

/** The worker's first message: the store is open, or it could not be opened. */
export type PgliteReady = { ready: true } | { ready: false; error: PgliteFailure };

/** Copies what a caller may read off an error (pg-protocol's `DatabaseError` fields: code, severity, detail, …). */
export function toFailure(error: unknown): PgliteFailure {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { message: error.message, name: error.name, fields };
}

/** The error a caller sees, made on its own thread so its stack is the caller's. */
export function fromFailure(failure: PgliteFailure): Error {
  const error = Object.assign(new Error(failure.message), failure.fields);
  error.name = failure.name;
  return error;
}
