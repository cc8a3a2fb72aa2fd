import type { Coord, Db } from '@gw/platform';
import { capUsages } from '../cap-views.js';
import { capStatusOf } from '../cap-views.js';
import { fromMicros } from '../money.js';
import type { UserCapStore } from '../user-caps.store.js';
import {
  attributionSql,
  dayOfSql,
  num,
  totalsOf,
  totalsSql,
  usd,
  type NumericCell,
  type TotalsRow,
} from './spend-sql.js';
import type { TimeRange } from './spend-window.js';

interface UserRow extends TotalsRow {
  user_id: string | null;
  attributed_key: string | null;
  team: string | null;
  rejected: NumericCell;
}
interface SliceRow {
  user_id: string | null;
  attributed_key: string | null;
  slice: string | null;
  requests: NumericCell;
  total_tokens: NumericCell;
  cost_usd: NumericCell;
}
interface ModelRow extends TotalsRow {
  model: string | null;
  provider: string | null;
}

const inRange = 'ts >= $1 AND ts < $2';
type Slice = { slice: string; requests: number; totalTokens: number; costUsd: number };
const identityOf = (row: { user_id: string | null; attributed_key: string | null }) =>
  `${row.user_id ?? ''}\u0000${row.attributed_key ?? ''}`;

async function slices(
  db: Db,
  range: TimeRange,
  users: string[],
  keys: string[],
  sliceSql: string,
): Promise<Map<string, Slice[]>> {
  const { rows } = await db.query<SliceRow>(
    `SELECT ${attributionSql}, ${sliceSql} AS slice, count(*) FILTER (WHERE outcome <> 'rejected') AS requests, COALESCE(sum(total_tokens), 0) AS total_tokens,
            COALESCE(sum(cost_usd), 0) AS cost_usd
       FROM gw_spend WHERE ${inRange} AND (user_id = ANY($3) OR (user_id IS NULL AND key_id = ANY($4)))
      GROUP BY 1, 2, 3 ORDER BY 3`,
    [new Date(range.start), new Date(range.end), users, keys],
  );
  const byIdentity = new Map<string, Slice[]>();
  for (const row of rows) {
    const list = byIdentity.get(identityOf(row)) ?? [];
    list.push({
      slice: row.slice ?? 'unknown',
      requests: num(row.requests),
      totalTokens: num(row.total_tokens),
      costUsd: usd(row.cost_usd),
    });
    byIdentity.set(identityOf(row), list);
  }
  return byIdentity;
}

/** Per-user usage, heaviest first, with per-model and per-UTC-day breakdowns. */
export async function usersUsage(db: Db, range: TimeRange, limit: number) {
  const { rows } = await db.query<UserRow>(
    `SELECT ${attributionSql}, min(team) AS team, ${totalsSql}, count(*) FILTER (WHERE outcome = 'rejected') AS rejected
       FROM gw_spend WHERE ${inRange} AND (user_id IS NOT NULL OR key_id IS NOT NULL)
      GROUP BY 1, 2 ORDER BY cost_usd DESC, total_tokens DESC, user_id NULLS LAST, attributed_key LIMIT $3`,
    [new Date(range.start), new Date(range.end), limit + 1],
  );
  const top = rows.slice(0, limit);
  const users = top.flatMap((row) => (row.user_id ? [row.user_id] : []));
  const keys = top.flatMap((row) => (row.user_id === null && row.attributed_key ? [row.attributed_key] : []));
  const empty = new Map<string, Slice[]>();
  const [byModel, byDay] =
    top.length === 0
      ? [empty, empty]
      : await Promise.all([
          slices(db, range, users, keys, "COALESCE(model, 'unknown')"),
          slices(db, range, users, keys, dayOfSql),
        ]);
  return {
    truncated: rows.length > limit,
    users: top.map((row) => ({
      user: row.user_id,
      keyId: row.attributed_key,
      team: row.team,
      ...totalsOf(row),
      rejected: num(row.rejected),
      byModel: (byModel.get(identityOf(row)) ?? []).map(({ slice, ...rest }) => ({ model: slice, ...rest })),
      byDay: (byDay.get(identityOf(row)) ?? []).map(({ slice, ...rest }) => ({ day: slice, ...rest })),
    })),
  };
}

/** Organisation totals and the per-model rollup. */
export async function orgUsage(db: Db, range: TimeRange) {
  const params = [new Date(range.start), new Date(range.end)];
  const [totals, models] = await Promise.all([
    db.query<TotalsRow & { users: NumericCell }>(
      `SELECT ${totalsSql}, count(DISTINCT COALESCE(user_id, 'key:' || key_id)) AS users FROM gw_spend WHERE ${inRange}`,
      params,
    ),
    db.query<ModelRow>(
      `SELECT COALESCE(model, 'unknown') AS model, min(provider) AS provider, ${totalsSql} FROM gw_spend WHERE ${inRange} AND outcome <> 'rejected' GROUP BY 1 ORDER BY cost_usd DESC, total_tokens DESC`,
      params,
    ),
  ]);
  return {
    totals: { ...totalsOf(totals.rows[0]), users: num(totals.rows[0]?.users) },
    models: models.rows.map((row) => ({ model: row.model ?? 'unknown', provider: row.provider, ...totalsOf(row) })),
  };
}

const percent = (used: number | null, limit: number | null) =>
  used === null || limit === null || limit <= 0 ? null : Math.round((used / limit) * 10_000) / 100;

/** Gauges of every capped user in the current cap period (not the report window): what the 402 checks see. */
export async function cappedUsers(coord: Coord, caps: UserCapStore, now: number) {
  const entries = [...caps.state().caps.values()];
  const usages = await capUsages(coord, entries, now);
  return entries.map((cap) => {
    const usage = usages?.get(cap.user) ?? null;
    const usdUsed = usage ? fromMicros(usage.costMicros) : null;
    return {
      user: cap.user,
      reset: cap.reset,
      monthlyTokens: cap.monthlyTokens,
      maxUsd: cap.maxUsd,
      softUsd: cap.softUsd,
      tokensUsed: usage ? usage.tokens : null,
      usdUsed,
      tokensPercent: percent(usage ? usage.tokens : null, cap.monthlyTokens),
      usdPercent: percent(usdUsed, cap.maxUsd),
      status: capStatusOf(cap, usage),
    };
  });
}
