import type { AgeBucket } from '@gw/contracts';

const minute = 60_000;
const hour = 60 * minute;

const buckets: ReadonlyArray<readonly [number, AgeBucket]> = [
  [minute, 'lt_1m'],
  [5 * minute, 'lt_5m'],
  [30 * minute, 'lt_30m'],
  [2 * hour, 'lt_2h'],
  [4 * hour, 'lt_4h'],
  [12 * hour, 'lt_12h'],
  [24 * hour, 'lt_24h'],
  [48 * hour, 'lt_48h'],
];

/** Age of a stash entry as the contract rule 6 buckets it; undefined when the age is unknown. */
export function ageBucket(ageMs: number | undefined): AgeBucket | undefined {
  if (ageMs === undefined || !Number.isFinite(ageMs)) return undefined;
  const age = Math.max(0, ageMs);
  for (const [limit, bucket] of buckets) if (age < limit) return bucket;
  return 'gte_48h';
}
