import { isoInstant } from '@gw/platform';
import type { Db } from '@gw/platform';
import { num, totalsOf, totalsSql, usd, type NumericCell, type TotalsRow } from './spend-sql.js';
import type { SpendWindow, TimeRange } from './spend-window.js';

interface GroupRow {
  name: string | null;
  requests: NumericCell;
  total_tokens: NumericCell;
  cost_usd: NumericCell;
}

const inRange = 'ts >= $1 AND ts < $2';

async function topBy(db: Db, params: unknown[], expression: string, limit: number): Promise<GroupRow[]> {
  const { rows } = await db.query<GroupRow>(
    `SELECT ${expression} AS name, count(*) AS requests, COALESCE(sum(total_tokens), 0) AS total_tokens, COALESCE(sum(cost_usd), 0) AS cost_usd
       FROM gw_spend WHERE ${inRange} AND outcome <> 'rejected' GROUP BY 1 ORDER BY cost_usd DESC, requests DESC LIMIT ${limit}`,
    params,
  );
  return rows;
}

const slice = (field: string) => (row: GroupRow) => ({
  [field]: row.name ?? 'unknown',
  requests: num(row.requests),
  totalTokens: num(row.total_tokens),
  costUsd: usd(row.cost_usd),
});

/** `GET /admin/spend/dashboard`: totals, a time series (hourly for 24h, daily otherwise) and top-N breakdowns. */
export async function dashboard(db: Db, window: SpendWindow, range: TimeRange) {
  const params = [new Date(range.start), new Date(range.end)];
  const bucket = window === '24h' ? 'hour' : 'day';
  const [totals, series, users, models, providers, endpoints, rejections, optimization] = await Promise.all([
    db.query<TotalsRow & { errors: NumericCell; rejected: NumericCell; active_users: NumericCell }>(
      `SELECT ${totalsSql}, count(*) FILTER (WHERE outcome = 'error') AS errors, count(*) FILTER (WHERE outcome = 'rejected') AS rejected,
              count(DISTINCT user_id) AS active_users FROM gw_spend WHERE ${inRange}`,
      params,
    ),
    db.query<{
      start: string;
      requests: NumericCell;
      errors: NumericCell;
      total_tokens: NumericCell;
      cost_usd: NumericCell;
    }>(
      `SELECT to_char(date_trunc('${bucket}', ts AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS start, count(*) FILTER (WHERE outcome <> 'rejected') AS requests,
              count(*) FILTER (WHERE outcome = 'error') AS errors, COALESCE(sum(total_tokens), 0) AS total_tokens, COALESCE(sum(cost_usd), 0) AS cost_usd
         FROM gw_spend WHERE ${inRange} GROUP BY 1 ORDER BY 1`,
      params,
    ),
    topBy(db, params, "COALESCE(user_id, 'key:' || key_id)", 10),
    topBy(db, params, "COALESCE(model, 'unknown')", 10),
    topBy(db, params, "COALESCE(provider, 'none')", 50),
    topBy(db, params, 'endpoint', 50),
    db.query<{ code: string | null; count: NumericCell }>(
      `SELECT error_code AS code, count(*) AS count FROM gw_spend WHERE ${inRange} AND outcome = 'rejected' GROUP BY 1 ORDER BY 2 DESC`,
      params,
    ),
    db.query<{ status: string; count: NumericCell }>(
      `SELECT optimization_status AS status, count(*) AS count FROM gw_spend WHERE ${inRange} AND optimization_status IS NOT NULL GROUP BY 1 ORDER BY 2 DESC`,
      params,
    ),
  ]);
  const totalsRow = totals.rows[0];
  return {
    window,
    period: { start: isoInstant(range.start), end: isoInstant(range.end) },
    bucket,
    totals: {
      ...totalsOf(totalsRow),
      errors: num(totalsRow?.errors),
      rejected: num(totalsRow?.rejected),
      activeUsers: num(totalsRow?.active_users),
    },
    series: series.rows.map((row) => ({
      start: row.start,
      requests: num(row.requests),
      errors: num(row.errors),
      totalTokens: num(row.total_tokens),
      costUsd: usd(row.cost_usd),
    })),
    topUsers: users.map(slice('user')),
    topModels: models.map(slice('model')),
    providers: providers.map(slice('provider')),
    endpoints: endpoints.map(slice('endpoint')),
    rejections: rejections.rows.map((row) => ({ code: row.code ?? 'unknown', count: num(row.count) })),
    optimization: optimization.rows.map((row) => ({ status: row.status, count: num(row.count) })),
  };
}
