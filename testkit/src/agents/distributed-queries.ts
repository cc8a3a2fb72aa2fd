import type { OsqueryDistributedWrite } from '@gw/contracts';

export type QueryRow = Readonly<Record<string, string>>;
/** Rows the query returned, or the SQLite error osquery would report (e.g. `no such table: alf`). */
export type QueryAnswer = readonly QueryRow[] | { readonly error: string };
/** Stands in for osquery's SQL engine: the host's answer to one query. */
export type QueryResolver = (sql: string) => QueryAnswer | Promise<QueryAnswer>;

/** One distributed query the host ran, as it reported it. */
export interface QueryRun {
  name: string;
  sql: string;
  /** 0 ran; 1 failed (osquery's SQL status code). */
  status: number;
  rows: QueryRow[];
  /** The error text; empty when the query ran. */
  message: string;
}

export type DistributedResults = Omit<OsqueryDistributedWrite, 'node_key'>;

/**
 * Runs the read queries as osquery does: in name order (it queues them under their names in RocksDB), each through
 * the resolver. A failed query reports status 1, no rows and its message; every query gets a message and stats.
 */
export async function runDistributedQueries(
  queries: Readonly<Record<string, string>>,
  resolve: QueryResolver,
): Promise<QueryRun[]> {
  const runs: QueryRun[] = [];
  for (const name of Object.keys(queries).sort()) {
    const sql = queries[name] ?? '';
    const answer = await resolve(sql);
    if (isFailure(answer)) runs.push({ name, sql, status: 1, rows: [], message: answer.error });
    // Distributed results are always strings, whatever the column type (osquery serialises rows as text).
    else runs.push({ name, sql, status: 0, rows: answer.map(asStrings), message: '' });
  }
  return runs;
}

/** osquery 5's distributed write body, without the node key (the agent adds it to every call). */
export function distributedResults(runs: readonly QueryRun[]): DistributedResults {
  const queries: Record<string, QueryRow[]> = {};
  const statuses: Record<string, number> = {};
  const messages: Record<string, string> = {};
  // osquery measures each query; the simulated host spends no time, so every figure is 0.
  const stats: Record<string, QueryStats> = {};
  for (const run of runs) {
    queries[run.name] = run.rows;
    statuses[run.name] = run.status;
    messages[run.name] = run.message;
    stats[run.name] = { wall_time_ms: 0, user_time: 0, system_time: 0, memory: 0 };
  }
  return { queries, statuses, messages, stats };
}

interface QueryStats {
  wall_time_ms: number;
  user_time: number;
  system_time: number;
  memory: number;
}

function isFailure(answer: QueryAnswer): answer is { readonly error: string } {
  return !Array.isArray(answer);
}

function asStrings(row: QueryRow): QueryRow {
  return Object.fromEntries(Object.entries(row).map(([column, value]) => [column, String(value)]));
}
