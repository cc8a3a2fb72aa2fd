import type { GuardThresholdsConfig, OptimizerConfig } from '@gw/contracts';

/** The guard's thresholds in milliseconds and counts, resolved from the settings. */
export interface GuardThresholds {
  readonly windowMs: number;
  readonly buckets: number;
  readonly minFired: number;
  readonly minRegrets: number;
  readonly regretRate: number;
  readonly lowTrafficMinFired: number;
  readonly lowTrafficPValue: number;
  readonly scoreThreshold: number;
  readonly scoreHalfLifeMs: number;
  readonly coolOffMs: number;
  readonly coolOffMaxMultiplier: number;
  readonly probeOneIn: number;
  readonly restoreProbes: number;
  readonly probeRotationMs: number;
  readonly relapseMinRegrets: number;
  readonly quietCloseMs: number;
}

const minute = 60_000;

/**
 * Spec values: a 30-minute window in 30 buckets; 50 fired and 10 regrets at 20%; low traffic 20–49 fired at
 * p ≤ 0.01; cool-off 10 minutes doubling to a 4× cap; restore after 20 clean probes, about 1 in 10 requests probing.
 * The score threshold, its half-life, the rotation, the relapse bar and the quiet look are ours (spec: "not shown").
 */
export const defaultGuardThresholds: GuardThresholds = {
  windowMs: 30 * minute,
  buckets: 30,
  minFired: 50,
  minRegrets: 10,
  regretRate: 0.2,
  lowTrafficMinFired: 20,
  lowTrafficPValue: 0.01,
  scoreThreshold: 6,
  scoreHalfLifeMs: 60 * minute,
  coolOffMs: 10 * minute,
  coolOffMaxMultiplier: 4,
  probeOneIn: 10,
  restoreProbes: 20,
  probeRotationMs: 10 * minute,
  relapseMinRegrets: 2,
  quietCloseMs: 60 * minute,
};

/** Thresholds in force: the spec defaults overridden by `guard.thresholds` from the settings API. */
export function resolveGuardThresholds(config: GuardThresholdsConfig | undefined): GuardThresholds {
  if (!config) return defaultGuardThresholds;
  const d = defaultGuardThresholds;
  const minutes = (value: number | undefined, fallback: number) => (value === undefined ? fallback : value * minute);
  return {
    windowMs: minutes(config.windowMinutes, d.windowMs),
    buckets: config.buckets ?? d.buckets,
    minFired: config.minFired ?? d.minFired,
    minRegrets: config.minRegrets ?? d.minRegrets,
    regretRate: config.regretRate ?? d.regretRate,
    lowTrafficMinFired: config.lowTrafficMinFired ?? d.lowTrafficMinFired,
    lowTrafficPValue: config.lowTrafficPValue ?? d.lowTrafficPValue,
    scoreThreshold: config.scoreThreshold ?? d.scoreThreshold,
    scoreHalfLifeMs: minutes(config.scoreHalfLifeMinutes, d.scoreHalfLifeMs),
    coolOffMs: minutes(config.coolOffMinutes, d.coolOffMs),
    coolOffMaxMultiplier: config.coolOffMaxMultiplier ?? d.coolOffMaxMultiplier,
    probeOneIn: config.probeOneIn ?? d.probeOneIn,
    restoreProbes: config.restoreProbes ?? d.restoreProbes,
    probeRotationMs: minutes(config.probeRotationMinutes, d.probeRotationMs),
    relapseMinRegrets: config.relapseMinRegrets ?? d.relapseMinRegrets,
    quietCloseMs: minutes(config.quietCloseMinutes, d.quietCloseMs),
  };
}

/** The guard block of the runtime config: on unless explicitly switched off. */
export interface GuardSettings {
  readonly enabled: boolean;
  readonly thresholds: GuardThresholds;
}

// The settings object is replaced, never mutated, so its identity keys the resolved thresholds (hot path).
const resolved = new WeakMap<OptimizerConfig, GuardSettings>();

export function guardSettingsOf(config: OptimizerConfig): GuardSettings {
  let settings = resolved.get(config);
  if (!settings) {
    settings = { enabled: config.guard?.enabled ?? true, thresholds: resolveGuardThresholds(config.guard?.thresholds) };
    resolved.set(config, settings);
  }
  return settings;
}

/** The thresholds in force, in the units the settings API takes (minutes, counts, rates). */
export function guardThresholdsView(thresholds: GuardThresholds): Required<GuardThresholdsConfig> {
  const minutes = (ms: number) => ms / 60_000;
  return {
    windowMinutes: minutes(thresholds.windowMs),
    buckets: thresholds.buckets,
    minFired: thresholds.minFired,
    minRegrets: thresholds.minRegrets,
    regretRate: thresholds.regretRate,
    lowTrafficMinFired: thresholds.lowTrafficMinFired,
    lowTrafficPValue: thresholds.lowTrafficPValue,
    scoreThreshold: thresholds.scoreThreshold,
    scoreHalfLifeMinutes: minutes(thresholds.scoreHalfLifeMs),
    coolOffMinutes: minutes(thresholds.coolOffMs),
    coolOffMaxMultiplier: thresholds.coolOffMaxMultiplier,
    probeOneIn: thresholds.probeOneIn,
    restoreProbes: thresholds.restoreProbes,
    probeRotationMinutes: minutes(thresholds.probeRotationMs),
    relapseMinRegrets: thresholds.relapseMinRegrets,
    quietCloseMinutes: minutes(thresholds.quietCloseMs),
  };
}
