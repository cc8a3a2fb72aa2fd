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

/** The spend columns those expressions read, with their types: all the content writer parses of a spend row. */
const SPEND_COLUMNS_READ =
  'id text, ts timestamptz, attribution jsonb, user_id text, team text, key_id text, endpoint text, provider text, ' +
  'model text, status integer, latency_ms integer, prompt_tokens integer, completion_tokens integer, ' +
  'cost_usd numeric, optimization_status text';

const traceColumns = TRACE_FROM_SPEND.map(([column]) => column).join(', ');
const fromSpend = TRACE_FROM_SPEND.map(([, expression]) => expression).join(', ');

/**
 * The traces of the rows in `source` (a relation of `gw_spend` rows) whose ids are in `ids` (a `text[]`
 * expression), without content. A trace already there is left as it is (it may hold sealed content).
 */
export function insertTracesOf(source: string, ids: string): string {
  // Both writers insert in id order, so two batches sharing traces wait on each other instead of deadlocking.
  return `INSERT INTO gw_traces (${traceColumns})
  SELECT ${fromSpend} FROM ${source} WHERE id = ANY(${ids}) ORDER BY id
  ON CONFLICT (id) DO NOTHING`;
}

/**
 * Traces with sealed content: `$1` the calls' spend rows as JSON (as the spend writer sends them; only the columns a
 * trace reads are parsed), `$2` their ids and `$3` each one's sealed content. Whichever of the two writers comes first
 * writes the trace, and the content is set either way, but only into a trace that has none and still names the
 * call's user: content a user's erasure or the retention sweep removed in the meantime is not put back.
 */
export const insertTracesWithContentSql = `INSERT INTO gw_traces (${traceColumns}, content_sealed)
  SELECT ${fromSpend}, sealed.content
    FROM json_to_recordset($1::json) AS spend (${SPEND_COLUMNS_READ})
    JOIN unnest($2::text[], $3::text[]) AS sealed (id, content) USING (id)
    ORDER BY id
  ON CONFLICT (id) DO UPDATE SET content_sealed = EXCLUDED.content_sealed
    WHERE gw_traces.content_sealed IS NULL AND gw_traces.user_id IS NOT DISTINCT FROM EXCLUDED.user_id`;
