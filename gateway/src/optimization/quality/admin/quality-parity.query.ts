import type { Db } from '@gw/platform';
import type { ArmSummary, Moments, RatioMoments } from '../index.js';
import type { TimeRange } from '../../../governance/spend/spend-window.js';

// undefined: the arm had no row at all.
type Cell = string | number | null | undefined;

interface ArmRow {
  cohort: 'holdout' | 'treated';
  sessions: Cell;
  requests: Cell;
  turns_mean: Cell;
  turns_var: Cell;
  successes_mean: Cell;
  successes_var: Cell;
  errors_mean: Cell;
  errors_var: Cell;
  errors_turns_cov: Cell;
  output_mean: Cell;
  output_var: Cell;
  output_successes_cov: Cell;
  latency_mean: Cell;
  latency_var: Cell;
  latency_successes_cov: Cell;
  cost_mean: Cell;
  cost_var: Cell;
}

/**
 * Per-session totals, then per-arm moments, all in the database: the result is two rows whatever the traffic.
 * A session is one gateway session id in one arm (assignment re-hashes per window, so a long session can span both).
 * Treated rows never carry cohortKind; holdout rows are the requested per-strategy arm, or the whole-optimizer arm
 * when cohortKind is null. Admission rejections never reached the optimizer and are left out.
 */
const armsSql = `
WITH sessions AS (
  SELECT attribution->'optimizer'->>'cohort' AS cohort,
         count(*)::float8 AS turns,
         count(*) FILTER (WHERE outcome = 'success')::float8 AS successes,
         count(*) FILTER (WHERE outcome = 'error')::float8 AS errors,
         COALESCE(sum(completion_tokens) FILTER (WHERE outcome = 'success'), 0)::float8 AS output_tokens,
         COALESCE(sum(latency_ms) FILTER (WHERE outcome = 'success'), 0)::float8 AS latency_ms,
         COALESCE(sum(cost_usd), 0)::float8 AS cost_usd
    FROM gw_spend
   WHERE ts >= $1 AND ts < $2
     AND outcome <> 'rejected'
     AND attribution->>'session' IS NOT NULL
     AND (attribution->'optimizer'->>'cohort' = 'treated'
          OR (attribution->'optimizer'->>'cohort' = 'holdout' AND (attribution->'optimizer'->>'cohortKind') IS NOT DISTINCT FROM $3::text))
   GROUP BY attribution->>'session', attribution->'optimizer'->>'cohort'
)
SELECT cohort, count(*) AS sessions, sum(turns) AS requests,
       avg(turns) AS turns_mean, var_samp(turns) AS turns_var,
       avg(successes) AS successes_mean, var_samp(successes) AS successes_var,
       avg(errors) AS errors_mean, var_samp(errors) AS errors_var, covar_samp(errors, turns) AS errors_turns_cov,
       avg(output_tokens) AS output_mean, var_samp(output_tokens) AS output_var, covar_samp(output_tokens, successes) AS output_successes_cov,
       avg(latency_ms) AS latency_mean, var_samp(latency_ms) AS latency_var, covar_samp(latency_ms, successes) AS latency_successes_cov,
       avg(cost_usd) AS cost_mean, var_samp(cost_usd) AS cost_var
  FROM sessions
 GROUP BY cohort`;

const value = (cell: Cell): number => (cell === null || cell === undefined ? 0 : Number(cell));

const moments = (n: number, mean: Cell, variance: Cell): Moments => ({
  n,
  mean: value(mean),
  variance: value(variance),
});

function ratio(n: number, numerator: [Cell, Cell], denominator: [Cell, Cell], covariance: Cell): RatioMoments {
  return {
    n,
    numeratorMean: value(numerator[0]),
    numeratorVariance: value(numerator[1]),
    denominatorMean: value(denominator[0]),
    denominatorVariance: value(denominator[1]),
    covariance: value(covariance),
  };
}

/** An arm's session-level moments from its aggregate row (var_samp and covar_samp are null below two sessions). */
export function armSummary(found: ArmRow | undefined): ArmSummary {
  // An arm nobody was assigned to has no row: no sessions, every moment empty.
  const row: Partial<ArmRow> = found ?? {};
  const n = value(row.sessions);
  const turns: [Cell, Cell] = [row.turns_mean, row.turns_var];
  const successes: [Cell, Cell] = [row.successes_mean, row.successes_var];
  return {
    sessions: n,
    requests: value(row.requests),
    turns: moments(n, row.turns_mean, row.turns_var),
    outputTokens: ratio(n, [row.output_mean, row.output_var], successes, row.output_successes_cov),
    errors: ratio(n, [row.errors_mean, row.errors_var], turns, row.errors_turns_cov),
    latency: ratio(n, [row.latency_mean, row.latency_var], successes, row.latency_successes_cov),
    cost: moments(n, row.cost_mean, row.cost_var),
  };
}

export interface QualityArms {
  /** Whether any row in the window carries an optimizer arm (the contract `holdout_off` otherwise). */
  attributable: boolean;
  holdout: ArmSummary;
  treated: ArmSummary;
}

export async function readQualityArms(db: Db, range: TimeRange, cohortKind: string | null): Promise<QualityArms> {
  const start = new Date(range.start);
  const end = new Date(range.end);
  const [arms, attributable] = await Promise.all([
    db.query<ArmRow>(armsSql, [start, end, cohortKind]),
    db.query<{ attributable: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM gw_spend WHERE ts >= $1 AND ts < $2 AND outcome <> 'rejected' AND attribution->'optimizer'->>'cohort' IN ('holdout', 'treated')) AS attributable`,
      [start, end],
    ),
  ]);
  return {
    attributable: attributable.rows[0]?.attributable === true,
    holdout: armSummary(arms.rows.find((row) => row.cohort === 'holdout')),
    treated: armSummary(arms.rows.find((row) => row.cohort === 'treated')),
  };
}
