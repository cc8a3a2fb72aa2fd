import { describe, expect, it } from 'vitest';
import { logGamma, regularizedGammaQ, regularizedIncompleteBeta } from './special-functions.js';

describe('log-gamma', () => {
  it.each([
    [0.5, Math.log(Math.sqrt(Math.PI))],
    [1, 0],
    [2, 0],
    [10, Math.log(362_880)],
    [100.5, 361.4355404677776],
    [1e-3, 6.907178885383854],
  ])('ln Γ(%d)', (x, expected) => {
    expect(logGamma(x)).toBeCloseTo(expected, 12);
  });
});

describe('regularized incomplete beta I_x(a, b)', () => {
  it('matches the closed forms I_x(1,1) = x, I_x(a,1) = xᵃ, I_x(1,b) = 1 − (1−x)ᵇ and I_½(a,a) = ½', () => {
    expect(regularizedIncompleteBeta(0.37, 1, 1)).toBeCloseTo(0.37, 14);
    expect(regularizedIncompleteBeta(0.6, 3.5, 1)).toBeCloseTo(0.6 ** 3.5, 14);
    expect(regularizedIncompleteBeta(0.2, 1, 4)).toBeCloseTo(1 - 0.8 ** 4, 14);
    expect(regularizedIncompleteBeta(0.5, 7.25, 7.25)).toBeCloseTo(0.5, 14);
  });

  it.each([
    [0.3, 2.5, 0.5, 0.018927124071945658],
    [0.9, 10, 0.5, 0.15164090963470994],
    [0.01, 0.5, 0.5, 0.06376856085851985],
  ])('I_%d(%d, %d) against reference values', (x, a, b, expected) => {
    expect(regularizedIncompleteBeta(x, a, b)).toBeCloseTo(expected, 12);
  });

  it('is 0 and 1 at the ends', () => {
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
  });
});

describe('regularized upper incomplete gamma Q(a, x)', () => {
  it('matches Q(1, x) = e^−x and Q(½, x) = erfc(√x)', () => {
    expect(regularizedGammaQ(1, 2.3)).toBeCloseTo(Math.exp(-2.3), 14);
    // erfc(√2) = 0.04550026389635842
    expect(regularizedGammaQ(0.5, 2)).toBeCloseTo(0.04550026389635857, 13);
  });

  it.each([
    [3, 7.5, 0.020256715056664387],
    [50, 40, 0.9296649333406051],
  ])('Q(%d, %d) against reference values on both the series and the continued-fraction side', (a, x, expected) => {
    expect(regularizedGammaQ(a, x)).toBeCloseTo(expected, 12);
  });
});
