import { confidenceLevel, meanEstimate, relativeDifference } from './intervals.js';
import type { ArmSummary } from './moments.js';
import { compareProxies, regressionDelta, type ProxyComparison, type ProxyName } from './proxies.js';
import { sampleRatioAlpha, sampleRatioTest, type SampleRatio } from './sample-ratio.js';

/**
 * Fewest sessions per arm before any verdict beyond `insufficient`: the sampling distribution of a session mean is
 * close enough to normal for a t interval from about 30 observations on (the usual central-limit rule of thumb), and
 * below that one heavy session can swing a 10% delta.
 */
export const minimumSessionsPerArm = 30;
/** The gross cost objective is a 30% reduction of cost per observed session. */
export const costObjective = 0.3;

export type QualityVerdict = 'parity' | 'regression' | 'insufficient' | 'imbalanced' | 'holdout_off';
export type CostVerdict = 'target_met' | 'target_not_proven' | 'insufficient' | 'holdout_off';

export interface GrossCostObjective {
  verdict: CostVerdict;
  holdoutCostPerSession: number | null;
  treatedCostPerSession: number | null;
  /** 1 − treated / holdout. */
  reductionPoint: number | null;
  reductionCiLow: number | null;
  reductionCiHigh: number | null;
  objective: number;
}

export interface QualityParityAssessment {
  verdict: QualityVerdict;
  sampleRatio: SampleRatio;
  proxies: Record<ProxyName, ProxyComparison>;
  grossCostObjective: GrossCostObjective;
  thresholds: { confidence: number; minimumSessionsPerArm: number; regressionDelta: number; sampleRatioAlpha: number };
}

export interface QualityParityInput {
  holdout: ArmSummary;
  treated: ArmSummary;
  /** Whether the window holds any row carrying an optimizer arm at all. */
  attributable: boolean;
  /** Share of the compared sessions the holdout config assigns to control; null when unknown. */
  expectedHoldoutShare: number | null;
}

const drivingProxies: readonly ProxyName[] = ['turnsPerSession', 'outputTokensPerRequest', 'errorRate'];

/**
 * Verdict, first match wins: no attributable rows → `holdout_off`; a sample-ratio mismatch →
 * `imbalanced` (broken assignment invalidates every comparison, however large); fewer than 30 sessions in an arm →
 * `insufficient`; a damaging proxy → `regression`; a proxy without an estimate → `insufficient`; else `parity`.
 * Latency never drives a verdict.
 */
export function overallVerdict(
  input: QualityParityInput,
  sampleRatio: SampleRatio,
  proxies: Record<ProxyName, ProxyComparison>,
): QualityVerdict {
  if (!input.attributable) return 'holdout_off';
  if (sampleRatio.mismatch) return 'imbalanced';
  if (input.holdout.sessions < minimumSessionsPerArm || input.treated.sessions < minimumSessionsPerArm)
    return 'insufficient';
  const verdicts = drivingProxies.map((name) => proxies[name].verdict);
  if (verdicts.includes('regression')) return 'regression';
  if (verdicts.includes('insufficient')) return 'insufficient';
  return 'parity';
}

/**
 * Actual list-price cost per observed session, treated against holdout. `target_met` needs quality
 * parity and the 95% interval's lower bound of the reduction at or above 30%; a point estimate alone is
 * `target_not_proven`.
 */
export function grossCostObjective(
  verdict: QualityVerdict,
  treated: ArmSummary,
  holdout: ArmSummary,
): GrossCostObjective {
  const treatedCost = meanEstimate(treated.cost);
  const holdoutCost = meanEstimate(holdout.cost);
  const relative = treatedCost && holdoutCost ? relativeDifference(treatedCost, holdoutCost) : null;
  const reductionPoint =
    treatedCost && holdoutCost && holdoutCost.value > 0 ? 1 - treatedCost.value / holdoutCost.value : null;
  const reductionCiLow = relative ? -relative.high : null;
  const reductionCiHigh = relative ? -relative.low : null;
  const costVerdict = (): CostVerdict => {
    if (verdict === 'holdout_off') return 'holdout_off';
    if (verdict === 'insufficient' || reductionCiLow === null) return 'insufficient';
    return verdict === 'parity' && reductionCiLow >= costObjective ? 'target_met' : 'target_not_proven';
  };
  return {
    verdict: costVerdict(),
    holdoutCostPerSession: holdoutCost?.value ?? null,
    treatedCostPerSession: treatedCost?.value ?? null,
    reductionPoint,
    reductionCiLow,
    reductionCiHigh,
    objective: costObjective,
  };
}

/** The audited-holdout comparison of the contract from the two arms' session-level summaries. Pure. */
export function assessQualityParity(input: QualityParityInput): QualityParityAssessment {
  const sampleRatio = sampleRatioTest(input.holdout.sessions, input.treated.sessions, input.expectedHoldoutShare);
  const proxies = compareProxies(input.treated, input.holdout);
  const verdict = overallVerdict(input, sampleRatio, proxies);
  return {
    verdict,
    sampleRatio,
    proxies,
    grossCostObjective: grossCostObjective(verdict, input.treated, input.holdout),
    thresholds: { confidence: confidenceLevel, minimumSessionsPerArm, regressionDelta, sampleRatioAlpha },
  };
}
