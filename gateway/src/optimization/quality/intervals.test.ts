import { describe, expect, it } from 'vitest';
import {
  effectiveTrials,
  meanEstimate,
  newcombeDifference,
  ratioEstimate,
  relativeDifference,
  welchDifference,
  wilsonInterval,
  z95,
} from './intervals.js';
import { momentsOf, ratioMomentsOf } from './moments.js';

// Student's sleep data (Cushny & Peebles), as in R's `t.test(extra ~ group, data = sleep)`:
// t = −1.8608, df = 17.776, 95% CI −3.3654832 to 0.2054832.
const sleepGroup1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const sleepGroup2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

describe("Welch's t interval", () => {
  it("reproduces R's Welch two-sample t-test on the sleep data", () => {
    const first = meanEstimate(momentsOf(sleepGroup1));
    const second = meanEstimate(momentsOf(sleepGroup2));
    if (!first || !second) throw new Error('estimates expected');
    const interval = welchDifference(first, second);
    expect(interval.point).toBeCloseTo(-1.58, 12);
    expect(interval.df).toBeCloseTo(17.776473516178488, 9);
    expect(interval.low).toBeCloseTo(-3.3654832307117104, 8);
    expect(interval.high).toBeCloseTo(0.20548323071171137, 8);
    expect(interval.point / Math.sqrt(first.variance + second.variance)).toBeCloseTo(-1.8608134674868526, 9);
  });

  it('collapses to the exact difference when neither arm varies', () => {
    const constant = meanEstimate(momentsOf([3, 3, 3]));
    const other = meanEstimate(momentsOf([2, 2, 2, 2]));
    if (!constant || !other) throw new Error('estimates expected');
    expect(welchDifference(constant, other)).toEqual({ point: 1, low: 1, high: 1, df: Number.POSITIVE_INFINITY });
  });

  it('has no estimate from fewer than two sessions', () => {
    expect(meanEstimate(momentsOf([4]))).toBeNull();
  });
});

describe('ratio of session sums (delta method)', () => {
  it('matches the hand-computed variance (s²ₓ − 2R·sₓᵧ + R²·s²ᵧ) / (n·ȳ²)', () => {
    // x̄ = 5, ȳ = 2, R = 2.5, s²ₓ = 38/3, s²ᵧ = 2, sₓᵧ = 5 → (38/3 − 25 + 12.5) / 16 = 1/96.
    const estimate = ratioEstimate(ratioMomentsOf([3, 5, 10, 2], [1, 2, 4, 1]));
    expect(estimate?.value).toBeCloseTo(2.5, 14);
    expect(estimate?.variance).toBeCloseTo(1 / 96, 14);
    expect(estimate?.df).toBe(3);
  });

  it('reduces to the plain mean and s²/n with one request per session', () => {
    const values = [4, 9, 1, 7, 3];
    const ratio = ratioEstimate(
      ratioMomentsOf(
        values,
        values.map(() => 1),
      ),
    );
    const mean = meanEstimate(momentsOf(values));
    expect(ratio?.value).toBeCloseTo(mean?.value ?? Number.NaN, 14);
    expect(ratio?.variance).toBeCloseTo(mean?.variance ?? Number.NaN, 14);
  });

  it('has no estimate when no session has a denominator', () => {
    expect(ratioEstimate(ratioMomentsOf([0, 0], [0, 0]))).toBeNull();
  });
});

describe('relative difference (log-ratio delta method)', () => {
  it('back-transforms the Welch interval of ln(treated / holdout)', () => {
    const interval = relativeDifference({ value: 12, variance: 0.5, df: 40 }, { value: 10, variance: 0.4, df: 30 });
    expect(interval?.point).toBeCloseTo(0.2, 14);
    expect(interval?.low).toBeCloseTo(0.009825207508287859, 9);
    expect(interval?.high).toBeCloseTo(0.42598935864668586, 9);
  });

  it('is undefined when a mean is not positive', () => {
    expect(relativeDifference({ value: 0, variance: 0, df: 3 }, { value: 1, variance: 0.1, df: 3 })).toBeNull();
  });
});

describe('Wilson score interval', () => {
  // Newcombe, "Two-sided confidence intervals for the single proportion", Stat Med 1998;17:857–872, Table I, method 3.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%d/%d → %d to %d', (successes, trials, low, high) => {
    const interval = wilsonInterval(successes, trials);
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  it('uses z = 1.959964', () => {
    expect(z95).toBeCloseTo(1.959963984540054, 12);
  });
});

describe("Newcombe's hybrid score interval for a difference of proportions", () => {
  // Newcombe, "Interval estimation for the difference between independent proportions", Stat Med 1998;17:873–890,
  // Table II, method 10.
  it.each([
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
    [6, 7, 2, 7, 0.0582, 0.8062],
    [5, 56, 0, 29, -0.0381, 0.1926],
    [0, 10, 0, 20, -0.1611, 0.2775],
    [0, 10, 0, 10, -0.2775, 0.2775],
    [10, 10, 0, 20, 0.6791, 1],
    [10, 10, 0, 10, 0.6075, 1],
  ])('%d/%d − %d/%d → %d to %d', (x1, n1, x2, n2, low, high) => {
    const interval = newcombeDifference({ successes: x1, trials: n1 }, { successes: x2, trials: n2 });
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });
});

describe('effective trials of a clustered proportion', () => {
  it('is p(1 − p) / Var(p̂), capped at the request count', () => {
    expect(effectiveTrials({ value: 0.1, variance: 0.0009, df: 50 }, 1000)).toBeCloseTo(100, 10);
    expect(effectiveTrials({ value: 0.1, variance: 0.00001, df: 50 }, 1000)).toBe(1000);
    expect(effectiveTrials({ value: 0, variance: 0, df: 50 }, 400)).toBe(400);
  });
});
