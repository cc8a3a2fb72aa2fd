import { RollingCounts } from '../guard/rolling-counts.js';
import type { HoldoutAssignment } from './assign-holdout.js';

/** Arm counts cover the last hour, in one-minute buckets (per replica). */
const windowMs = 60 * 60_000;
const buckets = 60;

/**
 * Per-replica arm counts behind the settings telemetry block `holdout`. Conclusions (parity, cost objective) come
 * from the gateway's spend rows, the authoritative source; these only show the split is live and balanced.
 */
export class HoldoutTelemetry {
  private readonly counts = new RollingCounts<string>();

  record(assignment: HoldoutAssignment, now: number): void {
    this.counts.add(now, assignment.cohort, 1, windowMs, buckets);
    if (assignment.cohortKind) this.counts.add(now, `kind:${assignment.cohortKind}`, 1, windowMs, buckets);
  }

  arms(now: number): { holdout: number; treated: number; kinds: Record<string, number> } {
    const totals = this.counts.sum(now, windowMs);
    const kinds: Record<string, number> = {};
    for (const [field, count] of [...totals].sort(([a], [b]) => (a < b ? -1 : 1)))
      if (field.startsWith('kind:')) kinds[field.slice(5)] = count;
    return { holdout: totals.get('holdout') ?? 0, treated: totals.get('treated') ?? 0, kinds };
  }

  get windowSeconds(): number {
    return windowMs / 1000;
  }
}
