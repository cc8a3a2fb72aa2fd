import { regularizedGammaQ, regularizedIncompleteBeta } from './special-functions.js';

/** Standard normal CDF Φ(z), through erfc(x) = Q(1/2, x²). */
export function normalCdf(z: number): number {
  const tail = 0.5 * regularizedGammaQ(0.5, (z * z) / 2);
  return z >= 0 ? 1 - tail : tail;
}

/** Φ⁻¹(p) by bisection on the CDF: slow next to a closed form, exact to double precision, called a few times a request. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError('normalQuantile needs 0 < p < 1');
  if (p < 0.5) return -normalQuantile(1 - p);
  let low = 0;
  let high = 40;
  for (let step = 0; step < 200 && high - low > 1e-15; step += 1) {
    const middle = (low + high) / 2;
    if (normalCdf(middle) < p) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/** Student's t CDF with `df` degrees of freedom (any real df > 0): 1 − ½·I_{df/(df+t²)}(df/2, ½) for t ≥ 0. */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError('studentTCdf needs df > 0');
  const tail = 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

// Beyond this the Cornish–Fisher expansion around the normal quantile is exact to double precision.
const normalLimitDf = 1e7;

/**
 * The t quantile t_{p, df} for real df > 0 (Welch–Satterthwaite df are not integers). Inverts the incomplete beta
 * function by bisection in x = df/(df+t²), where it is monotone, so there is no starting-point fragility.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError('studentTQuantile needs 0 < p < 1');
  if (!(df > 0)) throw new RangeError('studentTQuantile needs df > 0');
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  if (p === 0.5) return 0;
  if (df > normalLimitDf) return cornishFisher(normalQuantile(p), df);
  const target = 2 * (1 - p);
  let low = 0;
  let high = 1;
  for (let step = 0; step < 1100 && high - low > 1e-300; step += 1) {
    const middle = (low + high) / 2;
    if (middle === low || middle === high) break;
    if (regularizedIncompleteBeta(middle, df / 2, 0.5) < target) low = middle;
    else high = middle;
  }
  const x = (low + high) / 2;
  return Math.sqrt((df * (1 - x)) / x);
}

function cornishFisher(z: number, df: number): number {
  const z3 = z ** 3;
  const z5 = z ** 5;
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df);
}

/** Upper tail P(X ≥ x) of the chi-square distribution with `df` degrees of freedom. */
export function chiSquareSurvival(x: number, df: number): number {
  if (!(df > 0)) throw new RangeError('chiSquareSurvival needs df > 0');
  return regularizedGammaQ(df / 2, Math.max(x, 0) / 2);
}
