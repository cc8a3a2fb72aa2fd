const minute = 60_000;

/** Ten-minute lease, at most three attempts, 24-hour lifetime; output kept 30 days. */
export const remediationLimits = {
  leaseMs: 10 * minute,
  maxAttempts: 3,
  lifetimeMs: 24 * 60 * minute,
  outputRetentionMs: 30 * 24 * 60 * minute,
} as const;
