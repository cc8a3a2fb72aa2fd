import { chiSquareSurvival } from './distributions.js';

/**
 * Sample-ratio mismatch (SRM) test: a chi-square goodness-of-fit test (1 df) of the observed holdout and treated
 * session counts against the share the holdout configuration implies. p < 0.001 is the usual SRM alarm
 * (Fabijan et al., "Diagnosing Sample Ratio Mismatch in Online Controlled Experiments", KDD 2019): it fires on broken
 * assignment or attribution, not on chance. Skipped when the expected share is unknown or an expected count is below
 * 5, where the chi-square approximation does not hold.
 */
export const sampleRatioAlpha = 0.001;
const minimumExpectedCount = 5;

export interface SampleRatio {
  expectedHoldoutShare: number | null;
  observedHoldoutShare: number | null;
  chiSquare: number | null;
  pValue: number | null;
  mismatch: boolean;
}

export function sampleRatioTest(
  holdoutSessions: number,
  treatedSessions: number,
  expectedHoldoutShare: number | null,
): SampleRatio {
  const total = holdoutSessions + treatedSessions;
  const observedHoldoutShare = total > 0 ? holdoutSessions / total : null;
  const untested = { expectedHoldoutShare, observedHoldoutShare, chiSquare: null, pValue: null, mismatch: false };
  if (expectedHoldoutShare === null || !(expectedHoldoutShare > 0 && expectedHoldoutShare < 1)) return untested;
  const expectedHoldout = total * expectedHoldoutShare;
  const expectedTreated = total - expectedHoldout;
  if (expectedHoldout < minimumExpectedCount || expectedTreated < minimumExpectedCount) return untested;
  const chiSquare =
    (holdoutSessions - expectedHoldout) ** 2 / expectedHoldout +
    (treatedSessions - expectedTreated) ** 2 / expectedTreated;
  const pValue = chiSquareSurvival(chiSquare, 1);
  return { expectedHoldoutShare, observedHoldoutShare, chiSquare, pValue, mismatch: pValue < sampleRatioAlpha };
}

/**
 * The holdout share among the two compared arms implied by the optimizer's holdout config: `fraction`
 * of sessions go to control; with `kinds`, each control session withholds one kind picked uniformly, so one kind's arm
 * expects fraction/K against 1 − fraction treated. Null when the config does not produce the requested arm.
 */
export function expectedHoldoutShare(
  config: { fraction: number; kinds?: readonly string[] } | null,
  cohortKind: string | null,
): number | null {
  if (!config) return null;
  const kinds = config.kinds ?? [];
  if (cohortKind === null) return kinds.length === 0 ? config.fraction : null;
  // Assignment picks kinds[hash % K], so a kind listed twice is withheld twice as often.
  const picks = kinds.filter((kind) => kind === cohortKind).length;
  if (picks === 0) return null;
  const control = (config.fraction * picks) / kinds.length;
  const share = control / (control + 1 - config.fraction);
  return Number.isFinite(share) ? share : null;
}
