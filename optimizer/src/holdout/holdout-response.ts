import type { Decision, OptimizeResponse } from '@gw/contracts';
import type { HoldoutAssignment } from './assign-holdout.js';

/** `cohort` and, on a per-strategy control row only, `cohortKind`. */
export function cohortFields(holdout: HoldoutAssignment | null): Pick<OptimizeResponse, 'cohort' | 'cohortKind'> {
  if (!holdout) return {};
  return { cohort: holdout.cohort, ...(holdout.cohortKind ? { cohortKind: holdout.cohortKind } : {}) };
}

/** The single `audited_holdout` decision of a control response: it saved nothing, by design. */
export function holdoutDecision(holdout: HoldoutAssignment): Decision {
  const summary = holdout.cohortKind
    ? `audited holdout: ${holdout.cohortKind} withheld for this session`
    : 'audited holdout: request left unoptimized for this session';
  return { kind: 'audited_holdout', summary, estimatedTokensSaved: 0, estimatedSavingsUsd: 0 };
}
