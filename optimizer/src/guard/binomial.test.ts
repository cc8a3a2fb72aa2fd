import { describe, expect, it } from 'vitest';
import { binomialUpperTail } from './binomial.js';

describe('binomialUpperTail', () => {
  it('matches exact tail probabilities at the 20% regret rate', () => {
    // Exact values from rational arithmetic: sum_{i≥k} C(n,i) 0.2^i 0.8^(n-i).
    expect(binomialUpperTail(20, 10, 0.2)).toBeCloseTo(0.0025948274006740175, 12);
    expect(binomialUpperTail(20, 9, 0.2)).toBeCloseTo(0.009981786320724296, 12);
    expect(binomialUpperTail(30, 12, 0.2)).toBeCloseTo(0.009493122174722484, 12);
    expect(binomialUpperTail(30, 11, 0.2)).toBeCloseTo(0.025616255335326545, 12);
    expect(binomialUpperTail(49, 17, 0.2)).toBeCloseTo(0.011660157188243304, 12);
    expect(binomialUpperTail(100, 30, 0.2)).toBeCloseTo(0.011248978720991634, 12);
  });

  it('handles the edges', () => {
    expect(binomialUpperTail(20, 0, 0.2)).toBe(1);
    expect(binomialUpperTail(20, 21, 0.2)).toBe(0);
    expect(binomialUpperTail(20, 20, 0.2)).toBeCloseTo(0.2 ** 20, 25);
    expect(binomialUpperTail(5_000, 1_100, 0.2)).toBeGreaterThan(0);
  });
});
