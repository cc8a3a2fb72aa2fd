import { createHash } from 'node:crypto';
import type { OptimizerConfig, OptimizerMetadata } from '@gw/contracts';

export interface HoldoutAssignment {
  cohort: 'holdout' | 'treated';
  /** Per-strategy control row: the one kind withheld. Absent on a whole-optimizer control. */
  cohortKind?: string;
}

/**
 * Audited holdout (spec 001 §2.2): a deterministic slice of sessions, hashed within their user (or team), goes to
 * the control arm for one assignment window. Session source order: gatewaySessionId, sessionId, session. Null when
 * holdout is off or the request is not attributable.
 */
export function assignHoldout(holdout: OptimizerConfig['holdout'], metadata: OptimizerMetadata | undefined, now: number): HoldoutAssignment | null {
  if (!holdout?.enabled) return null;
  const principal = metadata?.user ? `user:${metadata.user}` : metadata?.team ? `team:${metadata.team}` : null;
  const session = metadata?.gatewaySessionId ?? metadata?.sessionId ?? metadata?.session;
  if (!principal || !session) return null;
  const window = Math.floor(now / (holdout.windowSeconds * 1000));
  const digest = createHash('sha256').update(`${metadata?.tenant ?? 'default'}\u0000${principal}\u0000${session}\u0000${window}`).digest();
  const draw = digest.readUInt32BE(0) / 2 ** 32;
  if (draw >= holdout.fraction) return { cohort: 'treated' };
  const kinds = holdout.kinds ?? [];
  if (kinds.length === 0) return { cohort: 'holdout' };
  return { cohort: 'holdout', cohortKind: kinds[digest.readUInt32BE(4) % kinds.length] };
}
