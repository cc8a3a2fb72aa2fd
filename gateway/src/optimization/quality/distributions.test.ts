import { describe, expect, it } from 'vitest';
import { chiSquareSurvival, normalCdf, normalQuantile, studentTCdf, studentTQuantile } from './distributions.js';

describe("Student's t quantile", () => {
  // Printed t tables (e.g. Moore, McCabe & Craig, Table D), two-sided 95% column: t_{0.975, df}.
  it.each([
    [1, 12.706],
    [2, 4.303],
    [3, 3.182],
    [4, 2.776],
    [5, 2.571],
    [10, 2.228],
    [20, 2.086],
    [30, 2.042],
    [60, 2.0],
    [120, 1.98],
  ])('t_{0.975, %d} = %d as printed in the table', (df, expected) => {
    expect(studentTQuantile(0.975, df)).toBeCloseTo(expected, 3);
  });

  it.each([
    [0.95, 1, 6.313751514675037],
    [0.95, 3, 2.3533634348018233],
    [0.995, 1, 63.656741162871526],
    [0.995, 3, 5.840909309733355],
    [0.975, 7.5, 2.333039626864974],
    // Welch–Satterthwaite df of R's sleep example.
    [0.975, 17.776, 2.102821310380221],
    [0.975, 1e6, 1.959966356814107],
    [0.975, 1e8, 1.9599640082627663],
    [0.995, 1e8, 2.5758293527143774],
  ])('t_{%d, %d} to nine decimals, fractional and huge df included', (p, df, expected) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(expected, 9);
  });

  it('is antisymmetric and zero at the median', () => {
    expect(studentTQuantile(0.025, 9)).toBeCloseTo(-studentTQuantile(0.975, 9), 12);
    expect(studentTQuantile(0.5, 4)).toBe(0);
  });

  it('inverts the CDF', () => {
    expect(studentTCdf(2, 5)).toBeCloseTo(0.9490302605850708, 12);
    expect(studentTCdf(-1.5, 2.5)).toBeCloseTo(0.12391822654314809, 12);
    expect(studentTCdf(studentTQuantile(0.9, 13.3), 13.3)).toBeCloseTo(0.9, 12);
  });
});

describe('normal distribution', () => {
  it('gives the familiar z values', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 12);
    expect(normalQuantile(0.995)).toBeCloseTo(2.5758293035489004, 12);
    expect(normalCdf(1)).toBeCloseTo(0.8413447460685429, 14);
    expect(normalCdf(-2.5)).toBeCloseTo(0.006209665325776132, 14);
  });
});

describe('chi-square upper tail', () => {
  // Critical values from chi-square tables: 3.841 (1 df, 0.05), 6.635 (1 df, 0.01), 10.828 (1 df, 0.001), 5.991 (2 df, 0.05).
  it.each([
    [3.841458820694124, 1, 0.05],
    [6.634896601021214, 1, 0.01],
    [10.827566170662733, 1, 0.001],
    [5.991464547107979, 2, 0.05],
    [10, 1, 0.001565402258002549],
  ])('P(χ² ≥ %d; %d df) = %d', (x, df, expected) => {
    expect(chiSquareSurvival(x, df)).toBeCloseTo(expected, 12);
  });
});
