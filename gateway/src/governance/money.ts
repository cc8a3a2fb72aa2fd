/**
 * Coord counters hold money as whole micro-dollars: integer adds are exact on every replica and in Redis, where
 * repeated float additions of list prices would drift. One micro-dollar is far below any per-request price.
 */
export const microsPerUsd = 1_000_000;

export function toMicros(usd: number): number {
  // toFixed first: 0.0000125 * 1e6 is 12.499999… in binary; Postgres rounds the exact decimal 12.5 to 13, and
  // reconciliation compares these counters with `round(cost_usd * 1e6)` sums.
  return Math.round(Number((usd * microsPerUsd).toFixed(6)));
}

/**
 * A USD limit (cap, budget, soft threshold) in micro-dollars. A positive limit under half a micro-dollar would round
 * to 0 and refuse the first request at $0 spent, against "at or above the limit"; it is one micro-dollar instead.
 */
export function limitMicros(usd: number): number {
  return usd > 0 ? Math.max(1, toMicros(usd)) : 0;
}

export function fromMicros(micros: number): number {
  return micros / microsPerUsd;
}

/** `$12.34` for messages; sub-cent budgets keep their digits. */
export function formatUsd(usd: number): string {
  return usd >= 0.01 || usd === 0 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2)}`;
}
