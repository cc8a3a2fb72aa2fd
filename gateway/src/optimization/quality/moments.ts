/**
 * Sufficient statistics of one arm, all at the session level (the unit the holdout randomizes).
 * The SQL computes the same quantities with avg, var_samp and covar_samp; `summarizeSessions` is the reference.
 */

/** One session-level variable: count, mean and sample variance (n − 1 denominator). */
export interface Moments {
  n: number;
  mean: number;
  variance: number;
}

/** A per-request rate as a ratio of two session-level sums, with their sample covariance. */
export interface RatioMoments {
  n: number;
  numeratorMean: number;
  numeratorVariance: number;
  denominatorMean: number;
  denominatorVariance: number;
  covariance: number;
}

/** One session's totals in one arm. */
export interface SessionTotals {
  /** Metered calls (turns), rejected admissions excluded. */
  requests: number;
  /** Successful calls: the denominator of output tokens and latency per request. */
  successes: number;
  errors: number;
  /** Output (completion) tokens of successful calls. */
  outputTokens: number;
  /** Latency of successful calls, milliseconds summed. */
  latencyMs: number;
  /** List-price cost of every call in the session. */
  costUsd: number;
}

export interface ArmSummary {
  sessions: number;
  requests: number;
  turns: Moments;
  outputTokens: RatioMoments;
  errors: RatioMoments;
  latency: RatioMoments;
  cost: Moments;
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

function covariance(left: readonly number[], right: readonly number[]): number {
  if (left.length < 2) return 0;
  const leftMean = mean(left);
  const rightMean = mean(right);
  let sum = 0;
  for (let index = 0; index < left.length; index += 1) sum += (left[index] - leftMean) * (right[index] - rightMean);
  return sum / (left.length - 1);
}

export function momentsOf(values: readonly number[]): Moments {
  return { n: values.length, mean: mean(values), variance: covariance(values, values) };
}

export function ratioMomentsOf(numerators: readonly number[], denominators: readonly number[]): RatioMoments {
  return {
    n: numerators.length,
    numeratorMean: mean(numerators),
    numeratorVariance: covariance(numerators, numerators),
    denominatorMean: mean(denominators),
    denominatorVariance: covariance(denominators, denominators),
    covariance: covariance(numerators, denominators),
  };
}

/** An arm's summary from its sessions (reference implementation of the SQL aggregate; used by tests). */
export function summarizeSessions(sessions: readonly SessionTotals[]): ArmSummary {
  const pick = (field: keyof SessionTotals) => sessions.map((session) => session[field]);
  return {
    sessions: sessions.length,
    requests: pick('requests').reduce((sum, value) => sum + value, 0),
    turns: momentsOf(pick('requests')),
    outputTokens: ratioMomentsOf(pick('outputTokens'), pick('successes')),
    errors: ratioMomentsOf(pick('errors'), pick('requests')),
    latency: ratioMomentsOf(pick('latencyMs'), pick('successes')),
    cost: momentsOf(pick('costUsd')),
  };
}
