import type { HeartbeatTier, UsageRollup } from '@gw/contracts';
import type { Queryable } from '@gw/platform';
import { num, totalsOf, totalsSql, type NumericCell, type TotalsRow } from '../governance/spend/spend-sql.js';

interface RollupRow extends TotalsRow {
  provider: string | null;
  model: string | null;
  errors: NumericCell;
  users: NumericCell;
}

// The spend reports' own totals (a rejected call is no request), plus the failures among the calls made.
const sums = `${totalsSql}, count(*) FILTER (WHERE outcome = 'error') AS errors`;
const window = 'recorded_at >= $1 AND recorded_at < $2';

function countsOf(row: RollupRow | undefined) {
  const totals = totalsOf(row);
  return {
    requests: totals.requests,
    errors: num(row?.errors),
    promptTokens: totals.promptTokens,
    completionTokens: totals.completionTokens,
    cacheReadTokens: totals.cacheReadTokens,
    cacheWriteTokens: totals.cacheWriteTokens,
    costUsd: totals.costUsd,
  };
}

/**
 * The usage of one window as billing sees it: totals on `full` and `aggregate`, and
 * per provider and model on `full`; `minimal` sends none (a liveness heartbeat). Windows are cut on `recorded_at`
 * (when the row reached the store), so every row lands in exactly one window however late it was written.
 */
export async function usageRollup(
  db: Queryable,
  tier: HeartbeatTier,
  start: Date,
  end: Date,
): Promise<UsageRollup | null> {
  if (tier === 'minimal') return null;
  const { rows: totals } = await db.query<RollupRow>(
    `SELECT NULL AS provider, NULL AS model, ${sums}, count(DISTINCT user_id) FILTER (WHERE outcome <> 'rejected') AS users FROM gw_spend WHERE ${window}`,
    [start, end],
  );
  const total = totals[0];
  const { savingsUsd, tokensSaved } = totalsOf(total);
  const rollup: UsageRollup = { ...countsOf(total), savingsUsd, tokensSaved, activeUsers: num(total?.users) };
  if (tier === 'aggregate') return rollup;
  const { rows } = await db.query<RollupRow>(
    `SELECT coalesce(provider, '') AS provider, coalesce(model, '') AS model, ${sums}, 0 AS users FROM gw_spend
     WHERE ${window} AND outcome <> 'rejected' GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 1000`,
    [start, end],
  );
  return {
    ...rollup,
    models: rows.map((row) => ({
      provider: (row.provider ?? '').slice(0, 128),
      model: (row.model ?? '').slice(0, 256),
      ...countsOf(row),
    })),
  };
}
