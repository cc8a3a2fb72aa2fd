import { isoTimestamp } from '@gw/platform';
import type { Clock, Db } from '@gw/platform';
import { afterCursor, decodeCursor, pageOf } from '../../admin/paging.js';
import type { TraceListQuery, TraceRecord } from './trace.schema.js';

/** What metering writes per traced call; `contentSealed` is an AES-256-GCM envelope (AAD `trace:<id>`) or absent. */
export interface NewTrace {
  id: string;
  sessionId?: string | null;
  user?: string | null;
  team?: string | null;
  keyId?: string | null;
  endpoint: string;
  provider?: string | null;
  model?: string | null;
  status: number;
  latencyMs?: number;
  promptTokens?: number;
  completionTokens?: number;
  costUsd?: number;
  optimizationStatus?: string | null;
  contentSealed?: string | null;
}

interface TraceRow {
  id: string;
  created_at: Date | string;
  session_id: string | null;
  user_id: string | null;
  team: string | null;
  key_id: string | null;
  endpoint: string;
  provider: string | null;
  model: string | null;
  status: number;
  latency_ms: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number | string;
  optimization_status: string | null;
  has_content: boolean;
}

const columns =
  'id, created_at, session_id, user_id, team, key_id, endpoint, provider, model, status, latency_ms, prompt_tokens, completion_tokens, cost_usd, optimization_status, content_sealed IS NOT NULL AS has_content';

const toRecord = (row: TraceRow): TraceRecord => ({
  id: row.id,
  at: isoTimestamp(row.created_at),
  sessionId: row.session_id,
  user: row.user_id,
  team: row.team,
  keyId: row.key_id,
  endpoint: row.endpoint,
  provider: row.provider,
  model: row.model,
  status: Number(row.status),
  latencyMs: Number(row.latency_ms),
  promptTokens: Number(row.prompt_tokens),
  completionTokens: Number(row.completion_tokens),
  costUsd: Number(row.cost_usd),
  optimizationStatus: row.optimization_status,
  hasContent: row.has_content,
});

const filterColumns: ReadonlyArray<[keyof TraceListQuery, string]> = [
  ['user', 'user_id'],
  ['model', 'model'],
  ['provider', 'provider'],
  ['session', 'session_id'],
];

type FacetColumn = 'provider' | 'model' | 'team' | 'user_id' | 'status';

/** The trace metadata lane; metering writes, the admin plane reads. */
export class TraceStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async insert(trace: NewTrace): Promise<void> {
    await this.db.query(
      `INSERT INTO gw_traces (id, created_at, session_id, user_id, team, key_id, endpoint, provider, model, status, latency_ms, prompt_tokens, completion_tokens, cost_usd, optimization_status, content_sealed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) ON CONFLICT (id) DO NOTHING`,
      [
        trace.id,
        new Date(this.clock.now()),
        trace.sessionId ?? null,
        trace.user ?? null,
        trace.team ?? null,
        trace.keyId ?? null,
        trace.endpoint,
        trace.provider ?? null,
        trace.model ?? null,
        trace.status,
        trace.latencyMs ?? 0,
        trace.promptTokens ?? 0,
        trace.completionTokens ?? 0,
        trace.costUsd ?? 0,
        trace.optimizationStatus ?? null,
        trace.contentSealed ?? null,
      ],
    );
  }

  async list(query: TraceListQuery): Promise<{ data: TraceRecord[]; nextCursor: string | null }> {
    const values: unknown[] = [];
    const conditions: string[] = [];
    for (const [name, column] of filterColumns) {
      const value = query[name];
      if (typeof value !== 'string') continue;
      values.push(value);
      conditions.push(`${column} = $${values.length}`);
    }
    const after = afterCursor(query.cursor ? decodeCursor(query.cursor) : null, values);
    if (after) conditions.push(after);
    values.push(query.limit + 1);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const { rows } = await this.db.query<TraceRow>(
      `SELECT ${columns} FROM gw_traces ${where} ORDER BY created_at DESC, id DESC LIMIT $${values.length}`,
      values,
    );
    const page = pageOf(rows, query.limit);
    return { data: page.rows.map(toRecord), nextCursor: page.nextCursor };
  }

  async get(id: string): Promise<TraceRecord | null> {
    const { rows } = await this.db.query<TraceRow>(`SELECT ${columns} FROM gw_traces WHERE id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** The sealed content envelope: `undefined` when the trace does not exist, `null` when it holds no content. */
  async sealedContent(id: string): Promise<string | null | undefined> {
    const { rows } = await this.db.query<{ content_sealed: string | null }>(
      'SELECT content_sealed FROM gw_traces WHERE id = $1',
      [id],
    );
    return rows[0] ? rows[0].content_sealed : undefined;
  }

  async facets(
    days: number,
  ): Promise<
    { since: string } & Record<
      'providers' | 'models' | 'teams' | 'users' | 'statuses',
      Array<{ value: string; count: number }>
    >
  > {
    const since = new Date(this.clock.now() - days * 86_400_000);
    const count = async (column: FacetColumn) => {
      const { rows } = await this.db.query<{ value: string | number; count: number }>(
        `SELECT ${column} AS value, count(*)::int AS count FROM gw_traces WHERE created_at >= $1 AND ${column} IS NOT NULL GROUP BY ${column} ORDER BY count DESC, value LIMIT 100`,
        [since],
      );
      return rows.map((row) => ({ value: String(row.value), count: Number(row.count) }));
    };
    const [providers, models, teams, users, statuses] = await Promise.all([
      count('provider'),
      count('model'),
      count('team'),
      count('user_id'),
      count('status'),
    ]);
    return { since: since.toISOString(), providers, models, teams, users, statuses };
  }

  async sessions(query: { limit: number; user?: string | undefined }) {
    const values: unknown[] = [];
    let where = 'session_id IS NOT NULL';
    if (query.user) {
      values.push(query.user);
      where += ` AND user_id = $${values.length}`;
    }
    values.push(query.limit);
    const { rows } = await this.db.query<{
      session_id: string;
      user_id: string | null;
      traces: number;
      first_at: Date | string;
      last_at: Date | string;
      prompt_tokens: number;
      completion_tokens: number;
      cost_usd: number | string;
    }>(
      `SELECT session_id, min(user_id) AS user_id, count(*)::int AS traces, min(created_at) AS first_at, max(created_at) AS last_at,
              sum(prompt_tokens)::bigint AS prompt_tokens, sum(completion_tokens)::bigint AS completion_tokens, sum(cost_usd) AS cost_usd
         FROM gw_traces WHERE ${where} GROUP BY session_id ORDER BY max(created_at) DESC, session_id LIMIT $${values.length}`,
      values,
    );
    return rows.map((row) => ({
      sessionId: row.session_id,
      user: row.user_id,
      traces: Number(row.traces),
      firstAt: isoTimestamp(row.first_at),
      lastAt: isoTimestamp(row.last_at),
      promptTokens: Number(row.prompt_tokens),
      completionTokens: Number(row.completion_tokens),
      costUsd: Number(row.cost_usd),
    }));
  }
}
