import { normalQuantile, studentTQuantile } from './distributions.js';
import type { Moments, RatioMoments } from './moments.js';

/** Every interval of the quality audit is a 95% confidence interval. */
export const confidenceLevel = 0.95;
const upper = 1 - (1 - confidenceLevel) / 2;
export const z95 = normalQuantile(upper);

/** A point estimate with the variance of the estimate and the degrees of freedom behind that variance. */
export interface Estimate {
  value: number;
  variance: number;
  df: number;
}

export interface Interval {
  point: number;
  low: number;
  high: number;
}

/** Mean of a session-level variable: variance s²/n on n − 1 df. */
export function meanEstimate(moments: Moments): Estimate | null {
  if (moments.n < 2) return null;
  return { value: moments.mean, variance: Math.max(moments.variance, 0) / moments.n, df: moments.n - 1 };
}

/**
 * A per-request rate x̄/ȳ over sessions, with the delta-method variance of a ratio of means
 * (Deng, Knoblich & Lu, "Applying the Delta Method in Metric Analytics", KDD 2018):
 * Var(R) ≈ (s²ₓ − 2R·sₓᵧ + R²·s²ᵧ) / (n·ȳ²). Requests inside a session are correlated, so treating them as
 * independent would overstate precision; with one request per session this reduces to the plain mean.
 */
export function ratioEstimate(moments: RatioMoments): Estimate | null {
  if (moments.n < 2 || !(moments.denominatorMean > 0)) return null;
  const ratio = moments.numeratorMean / moments.denominatorMean;
  const spread =
    moments.numeratorVariance - 2 * ratio * moments.covariance + ratio * ratio * moments.denominatorVariance;
  return {
    value: ratio,
    variance: Math.max(spread, 0) / (moments.n * moments.denominatorMean ** 2),
    df: moments.n - 1,
  };
}

/** Welch–Satterthwaite degrees of freedom of a sum of independent variance components. */
export function satterthwaite(components: ReadonlyArray<{ variance: number; df: number }>): number {
  const total = components.reduce((sum, component) => sum + component.variance, 0);
  const denominator = components.reduce((sum, component) => sum + component.variance ** 2 / component.df, 0);
  return denominator > 0 ? total ** 2 / denominator : Number.POSITIVE_INFINITY;
}

/** Welch's t interval for treated − holdout (unequal variances, Welch–Satterthwaite df). */
export function welchDifference(treated: Estimate, holdout: Estimate): Interval & { df: number } {
  const point = treated.value - holdout.value;
  const variance = treated.variance + holdout.variance;
  // Both arms constant: no sampling spread, the difference is exact.
  if (!(variance > 0)) return { point, low: point, high: point, df: Number.POSITIVE_INFINITY };
  const df = satterthwaite([treated, holdout]);
  const half = studentTQuantile(upper, df) * Math.sqrt(variance);
  return { point, low: point - half, high: point + half, df };
}

/**
 * Interval for treated / holdout − 1 by the delta method on the log ratio: Var(ln R) ≈ V_t/t² + V_h/h²,
 * Welch–Satterthwaite df on those components, back-transformed (always inside (−1, ∞)). Null when a mean is not positive.
 */
export function relativeDifference(treated: Estimate, holdout: Estimate): Interval | null {
  if (!(treated.value > 0 && holdout.value > 0)) return null;
  const point = treated.value / holdout.value - 1;
  const treatedPart = { variance: treated.variance / treated.value ** 2, df: treated.df };
  const holdoutPart = { variance: holdout.variance / holdout.value ** 2, df: holdout.df };
  const variance = treatedPart.variance + holdoutPart.variance;
  if (!(variance > 0)) return { point, low: point, high: point };
  const half = studentTQuantile(upper, satterthwaite([treatedPart, holdoutPart])) * Math.sqrt(variance);
  const logRatio = Math.log1p(point);
  return { point, low: Math.expm1(logRatio - half), high: Math.expm1(logRatio + half) };
}

/** Wilson score interval for a proportion x/n (x may be fractional: an effective count). */
export function wilsonInterval(successes: number, trials: number, z = z95): Interval {
  if (!(trials > 0)) return { point: 0, low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const center = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { point: p, low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

/**
 * Newcombe's hybrid score interval for p₁ − p₂ (Newcombe, Stat Med 1998;17:873–890, method 10): combines the two
 * Wilson intervals, stays inside [−1, 1] and behaves at zero counts where the Wald interval collapses.
 */
export function newcombeDifference(
  first: { successes: number; trials: number },
  second: { successes: number; trials: number },
  z = z95,
): Interval {
  const one = wilsonInterval(first.successes, first.trials, z);
  const two = wilsonInterval(second.successes, second.trials, z);
  const point = one.point - two.point;
  const below = Math.sqrt((one.point - one.low) ** 2 + (two.high - two.point) ** 2);
  const above = Math.sqrt((one.high - one.point) ** 2 + (two.point - two.low) ** 2);
  return { point, low: point - below, high: point + above };
}

/**
 * Effective number of independent requests behind a clustered proportion: p(1 − p) / Var(p̂) with the delta-method
 * variance, never more than the requests themselves (a design effect below 1 is sampling noise, not information).
 */
export function effectiveTrials(rate: Estimate, requests: number): number {
  const p = rate.value;
  if (!(p > 0 && p < 1) || !(rate.variance > 0)) return requests;
  return Math.min(requests, (p * (1 - p)) / rate.variance);
}
