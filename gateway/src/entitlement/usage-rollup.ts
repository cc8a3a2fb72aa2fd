import type { HeartbeatTier, UsageRollup } from '@gw/contracts';
import type { Queryable } from '@gw/platform';

type Cell = string | number | null;
interface RollupRow {
  provider: string | null;
  model: string | null;
  requests: Cell;
  errors: Cell;
  prompt_tokens: Cell;
  completion_tokens: Cell;
  cache_read_tokens: Cell;
  cache_write_tokens: Cell;
  cost_usd: Cell;
  savings_usd: Cell;
  tokens_saved: Cell;
}

const int = (value: Cell) => Math.trunc(Number(value ?? 0));
// Dollars to 1e-10: sums of numeric columns come back as strings with more digits than a report needs.
const usd = (value: Cell) => Math.round(Number(value ?? 0) * 1e10) / 1e10;

const sums = `count(*) AS requests, count(*) FILTER (WHERE outcome <> 'success') AS errors,
  sum(prompt_tokens) AS prompt_tokens, sum(completion_tokens) AS completion_tokens,
  sum(cache_read_tokens) AS cache_read_tokens, sum(cache_write_tokens) AS cache_write_tokens,
  sum(cost_usd) AS cost_usd, sum(savings_usd) AS savings_usd, sum(tokens_saved) AS tokens_saved`;

const window = 'recorded_at >= $1 AND recorded_at < $2';

function countsOf(row: RollupRow | undefined) {
  return {
    requests: int(row?.requests ?? 0),
    errors: int(row?.errors ?? 0),
    promptTokens: int(row?.prompt_tokens ?? 0),
    completionTokens: int(row?.completion_tokens ?? 0),
    cacheReadTokens: int(row?.cache_read_tokens ?? 0),
    cacheWriteTokens: int(row?.cache_write_tokens ?? 0),
    costUsd: usd(row?.cost_usd ?? 0),
  };
}

/**
 * The usage of one window as billing sees it (spec 001 §1.8: never content): totals on `full` and `aggregate`, and
 * per provider and model on `full`; `minimal` sends none (a liveness heartbeat). Windows are cut on `recorded_at`
 * (when the row reached the store), so every row lands in exactly one window however late it was written.
 */
export async function usageRollup(db: Queryable, tier: HeartbeatTier, start: Date, end: Date): Promise<UsageRollup | null> {
  if (tier === 'minimal') return null;
  const [totals, users] = await Promise.all([
    db.query<RollupRow>(`SELECT NULL AS provider, NULL AS model, ${sums} FROM gw_spend WHERE ${window}`, [start, end]),
    db.query<{ users: Cell }>(`SELECT count(DISTINCT user_id) AS users FROM gw_spend WHERE ${window} AND user_id IS NOT NULL`, [start, end]),
  ]);
  const total = totals.rows[0];
  const rollup: UsageRollup = { ...countsOf(total), savingsUsd: usd(total?.savings_usd ?? 0), tokensSaved: int(total?.tokens_saved ?? 0), activeUsers: int(users.rows[0]?.users ?? 0) };
  if (tier === 'aggregate') return rollup;
  const { rows } = await db.query<RollupRow>(
    `SELECT coalesce(provider, '') AS provider, coalesce(model, '') AS model, ${sums} FROM gw_spend WHERE ${window}
     GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 1000`,
    [start, end],
  );
  return { ...rollup, models: rows.map((row) => ({ provider: (row.provider ?? '').slice(0, 128), model: (row.model ?? '').slice(0, 256), ...countsOf(row) })) };
}
