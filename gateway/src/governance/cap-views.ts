import { isoInstant } from '@gw/platform';
import type { Coord } from '@gw/platform';
import { fromMicros, limitMicros } from './money.js';
import { periodOf } from './period.js';
import { counterKey } from './usage-counters.js';
import type { CapView, CapsResponse } from './user-caps.schema.js';
import type { CapsState, UserCap } from './user-caps.store.js';

export interface CapUsage {
  tokens: number;
  costMicros: number;
}

/** under, soft (past softUsd), over (requests answer 402), or unknown (counters unavailable). */
export function capStatusOf(
  cap: Pick<UserCap, 'monthlyTokens' | 'maxUsd' | 'softUsd'>,
  usage: CapUsage | null,
): CapView['status'] {
  if (!usage) return 'unknown';
  if (
    (cap.monthlyTokens !== null && usage.tokens >= cap.monthlyTokens) ||
    (cap.maxUsd !== null && usage.costMicros >= limitMicros(cap.maxUsd))
  )
    return 'over';
  if (cap.softUsd !== null && usage.costMicros >= limitMicros(cap.softUsd)) return 'soft';
  return 'under';
}

/** One entry as the admin routes return it: limits, current-period usage and posture; never the webhook URL. */
export function capViewOf(cap: UserCap, usage: CapUsage | null, now: number): CapView {
  const period = periodOf(cap.reset, now);
  return {
    user: cap.user,
    monthlyTokens: cap.monthlyTokens,
    maxUsd: cap.maxUsd,
    softUsd: cap.softUsd,
    reset: cap.reset,
    strict: cap.strict,
    alerts:
      cap.alertThresholds === null && cap.webhookSealed === null
        ? null
        : { thresholdsPercent: cap.alertThresholds ?? [], webhookConfigured: cap.webhookSealed !== null },
    revision: cap.revision,
    updatedAt: cap.updatedAt,
    updatedBy: cap.updatedBy,
    periodStart: isoInstant(period.start),
    resetsAt: period.end === null ? null : isoInstant(period.end),
    usage: usage ? usage.tokens : null,
    budgetUsage: usage ? fromMicros(usage.costMicros) : null,
    status: capStatusOf(cap, usage),
  };
}

/** Current-period usage of every listed cap in one Coord round trip; null when Coord is unreachable. */
export async function capUsages(
  coord: Coord,
  caps: readonly UserCap[],
  now: number,
): Promise<Map<string, CapUsage> | null> {
  const keys = caps.flatMap((cap) => {
    const period = periodOf(cap.reset, now);
    return [
      counterKey({ kind: 'user', id: cap.user }, period, 'tokens'),
      counterKey({ kind: 'user', id: cap.user }, period, 'costMicros'),
    ];
  });
  let values: number[];
  try {
    values = keys.length === 0 ? [] : await coord.getCounters(keys);
  } catch {
    return null;
  }
  return new Map(
    caps.map((cap, index) => [cap.user, { tokens: values[index * 2] ?? 0, costMicros: values[index * 2 + 1] ?? 0 }]),
  );
}

/** The GET shape of `/admin/user-caps`. */
export async function capsResponseOf(coord: Coord, state: CapsState, now: number): Promise<CapsResponse> {
  const caps = [...state.caps.values()];
  const usages = await capUsages(coord, caps, now);
  const views: Record<string, CapView> = {};
  const usage: Record<string, number> = {};
  const budgetUsage: Record<string, number> = {};
  for (const cap of caps) {
    const current = usages?.get(cap.user) ?? null;
    views[cap.user] = capViewOf(cap, current, now);
    if (current) {
      usage[cap.user] = current.tokens;
      budgetUsage[cap.user] = fromMicros(current.costMicros);
    }
  }
  return {
    caps: views,
    usage,
    budgetUsage,
    alerts: {
      thresholdsPercent: state.alerts.thresholdsPercent ?? [],
      webhookConfigured: state.alerts.webhookSealed !== null,
    },
    revision: state.revision,
    updatedAt: state.updatedAt,
  };
}
