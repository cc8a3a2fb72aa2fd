import { createHash } from 'node:crypto';
import type { OptimizerConfig, OptimizerMetadata } from '@gw/contracts';
import { callerOwner, nonBlank } from '../http/caller-owner.js';

export interface HoldoutAssignment {
  cohort: 'holdout' | 'treated';
  /** Per-strategy control row: the one kind withheld. Absent on a whole-optimizer control. */
  cohortKind?: string;
}

/**
 * The session a request belongs to for the holdout: `gatewaySessionId`, then
 * `sessionId`, then `session`. Empty strings do not count.
 */
export function holdoutSession(metadata: OptimizerMetadata | undefined): string | undefined {
  return nonBlank(metadata?.gatewaySessionId) ?? nonBlank(metadata?.sessionId) ?? nonBlank(metadata?.session);
}

/**
 * Audited holdout: a deterministic slice of sessions, hashed within their user (else team)
 * and tenant, goes to the control arm for one assignment window. Both legs (optimize and optimize-response)
 * re-derive the arm from the same metadata, so nothing is stored. Null when holdout is off or the request is not
 * attributable (no user or team, or no session).
 */
export function assignHoldout(
  holdout: OptimizerConfig['holdout'],
  metadata: OptimizerMetadata | undefined,
  now: number,
): HoldoutAssignment | null {
  if (!holdout?.enabled) return null;
  const { tenant, user, team } = callerOwner(metadata);
  const principal = user ? `user:${user}` : team ? `team:${team}` : null;
  const session = holdoutSession(metadata);
  if (!principal || !session) return null;
  const window = Math.floor(now / (holdout.windowSeconds * 1000));
  const digest = createHash('sha256').update(`${tenant}\u0000${principal}\u0000${session}\u0000${window}`).digest();
  const draw = digest.readUInt32BE(0) / 2 ** 32;
  if (draw >= holdout.fraction) return { cohort: 'treated' };
  const kinds = [...new Set(holdout.kinds ?? [])];
  if (kinds.length === 0) return { cohort: 'holdout' };
  // Never more than one kind per control row.
  return { cohort: 'holdout', cohortKind: kinds[digest.readUInt32BE(4) % kinds.length] };
}
