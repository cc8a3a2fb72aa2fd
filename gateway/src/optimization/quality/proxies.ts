import {
  effectiveTrials,
  meanEstimate,
  newcombeDifference,
  ratioEstimate,
  relativeDifference,
  welchDifference,
  type Estimate,
  type Interval,
} from './intervals.js';
import type { ArmSummary } from './moments.js';

/** A regression needs the interval to exclude zero in a damaging direction and a delta above 10%. */
export const regressionDelta = 0.1;

/** Which way a proxy can hurt: more turns and more errors are damaging; output length is damaging either way. */
export type ProxyDirection = 'higher_is_worse' | 'two_sided' | 'display_only';
export type ProxyVerdict = 'parity' | 'regression' | 'insufficient' | 'display_only';
export type ProxyName = 'turnsPerSession' | 'outputTokensPerRequest' | 'errorRate' | 'latencyMs';

export interface ProxyComparison {
  direction: ProxyDirection;
  holdout: number | null;
  treated: number | null;
  /** treated − holdout. */
  delta: number | null;
  deltaCiLow: number | null;
  deltaCiHigh: number | null;
  /** treated / holdout − 1. */
  relativeDelta: number | null;
  relativeCiLow: number | null;
  relativeCiHigh: number | null;
  verdict: ProxyVerdict;
}

/** True when the interval excludes zero on a damaging side and the relative delta passes 10% on that side. */
export function isRegression(direction: ProxyDirection, delta: Interval, relativeDelta: number | null): boolean {
  // A zero holdout baseline makes any increase infinitely large in relative terms.
  const worseUp = delta.low > 0 && (relativeDelta === null || relativeDelta > regressionDelta);
  if (direction === 'higher_is_worse') return worseUp;
  if (direction === 'two_sided')
    return worseUp || (delta.high < 0 && relativeDelta !== null && relativeDelta < -regressionDelta);
  return false;
}

const insufficient = (
  direction: ProxyDirection,
  treated: Estimate | null,
  holdout: Estimate | null,
): ProxyComparison => ({
  direction,
  holdout: holdout?.value ?? null,
  treated: treated?.value ?? null,
  delta: null,
  deltaCiLow: null,
  deltaCiHigh: null,
  relativeDelta: null,
  relativeCiLow: null,
  relativeCiHigh: null,
  verdict: direction === 'display_only' ? 'display_only' : 'insufficient',
});

function compare(
  direction: ProxyDirection,
  treated: Estimate | null,
  holdout: Estimate | null,
  deltaInterval: (treated: Estimate, holdout: Estimate) => Interval,
): ProxyComparison {
  if (!treated || !holdout) return insufficient(direction, treated, holdout);
  const delta = deltaInterval(treated, holdout);
  const relative = relativeDifference(treated, holdout);
  const relativeDelta = holdout.value > 0 ? treated.value / holdout.value - 1 : null;
  const verdict: ProxyVerdict =
    direction === 'display_only'
      ? 'display_only'
      : isRegression(direction, delta, relativeDelta)
        ? 'regression'
        : 'parity';
  return {
    direction,
    holdout: holdout.value,
    treated: treated.value,
    delta: delta.point,
    deltaCiLow: delta.low,
    deltaCiHigh: delta.high,
    relativeDelta,
    relativeCiLow: relative?.low ?? null,
    relativeCiHigh: relative?.high ?? null,
    verdict,
  };
}

/** Error rate: Newcombe's interval on effective request counts, so session clustering widens it as it should. */
function errorRateInterval(treatedArm: ArmSummary, holdoutArm: ArmSummary) {
  return (treated: Estimate, holdout: Estimate): Interval => {
    const treatedTrials = effectiveTrials(treated, treatedArm.requests);
    const holdoutTrials = effectiveTrials(holdout, holdoutArm.requests);
    return newcombeDifference(
      { successes: treated.value * treatedTrials, trials: treatedTrials },
      { successes: holdout.value * holdoutTrials, trials: holdoutTrials },
    );
  };
}

/** The four quality proxies of the contract, treated against holdout. */
export function compareProxies(treated: ArmSummary, holdout: ArmSummary): Record<ProxyName, ProxyComparison> {
  return {
    turnsPerSession: compare(
      'higher_is_worse',
      meanEstimate(treated.turns),
      meanEstimate(holdout.turns),
      welchDifference,
    ),
    outputTokensPerRequest: compare(
      'two_sided',
      ratioEstimate(treated.outputTokens),
      ratioEstimate(holdout.outputTokens),
      welchDifference,
    ),
    errorRate: compare(
      'higher_is_worse',
      ratioEstimate(treated.errors),
      ratioEstimate(holdout.errors),
      errorRateInterval(treated, holdout),
    ),
    latencyMs: compare('display_only', ratioEstimate(treated.latency), ratioEstimate(holdout.latency), welchDifference),
  };
}
