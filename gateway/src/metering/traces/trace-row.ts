/**
 * A call's trace is its spend row read another way: the same id (so the two join), its metadata, never content. The
 * mapping is written once, here, in SQL, and both writers use it: the spend writer derives the traces of the rows it
 * inserts (`../spend-writer.ts`), the content writer the rows it seals content into (`./trace-writer.ts`).
 */
const TRACE_FROM_SPEND: ReadonlyArray<readonly [traceColumn: string, fromSpend: string]> = [
  ['id', 'id'],
  ['created_at', 'ts'],
  // The gateway session (sticky conversation) the call belongs to is the trace's session.
  ['session_id', "attribution->>'session'"],
  ['user_id', 'user_id'],
  ['team', 'team'],
  ['key_id', 'key_id'],
  ['endpoint', 'endpoint'],
  ['provider', 'provider'],
  ['model', 'model'],
  ['status', 'status'],
  ['latency_ms', 'latency_ms'],
  ['prompt_tokens', 'prompt_tokens'],
  ['completion_tokens', 'completion_tokens'],
  ['cost_usd', 'cost_usd'],
  ['optimization_status', 'optimization_status'],
];

const traceColumns = TRACE_FROM_SPEND.map(([column]) => column).join(', ');
const fromSpend = TRACE_FROM_SPEND.map(([, expression]) => expression).join(', ');

/**
 * The traces of the rows in `source` (a relation of `gw_spend` rows) whose ids are in `ids` (a `text[]`
 * expression), without content. A trace already there is left as it is (it may hold sealed content).
 */
export function insertTracesOf(source: string, ids: string): string {
  return `INSERT INTO gw_traces (${traceColumns})
  SELECT ${fromSpend} FROM ${source} WHERE id = ANY(${ids})
  ON CONFLICT (id) DO NOTHING`;
}

/**
 * Traces with sealed content: `$1` the calls' spend rows as JSON (as the spend writer sends them), `$2` their ids and
 * `$3` each one's sealed content, in the same order. Whichever of the two writers comes first writes the trace; the
 * content is set either way.
 */
export const insertTracesWithContentSql = `INSERT INTO gw_traces (${traceColumns}, content_sealed)
  SELECT ${fromSpend}, sealed.content
    FROM json_populate_recordset(NULL::gw_spend, $1::json) AS spend
    JOIN unnest($2::text[], $3::text[]) AS sealed (id, content) USING (id)
  ON CONFLICT (id) DO UPDATE SET content_sealed = EXCLUDED.content_sealed`;
