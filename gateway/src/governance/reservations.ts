import type { Coord } from '@gw/platform';
import { subjectId, type Subject } from './usage-counters.js';

/**
 * Strict-mode reservations (governance/README.md). A reservation is added to a time bucket and taken back from the
 * same bucket; readers sum the current and the previous bucket. A replica that dies holding a reservation therefore
 * leaks it for at most two buckets, never for the rest of the month.
 */
export const reservationBucketMs = 15 * 60_000;

export type ReservedField = 'tokens' | 'costMicros';

export function reservationKey(subject: Subject, field: ReservedField, bucket: number): string {
  return `gov:rsv:${subject.kind}:${encodeURIComponent(subjectId(subject))}:${field}:${bucket}`;
}

export const bucketOf = (now: number) => Math.floor(now / reservationBucketMs);

/** Keys a strict check reads besides its own fresh increment: the previous bucket of each field. */
export function previousBucketKeys(subject: Subject, now: number): [string, string] {
  const previous = bucketOf(now) - 1;
  return [reservationKey(subject, 'tokens', previous), reservationKey(subject, 'costMicros', previous)];
}

/** One held reservation; `release` is idempotent and never throws (a failed decrement expires with its bucket). */
export interface Reservation {
  subject: Subject;
  /** Reserved totals of the current bucket right after this reservation was added (this one included). */
  bucketTokens: number;
  bucketCostMicros: number;
  release(): Promise<void>;
}

export class Reservations {
  constructor(private readonly coord: Coord) {}

  /** Add the estimate atomically; the returned totals include every concurrent reservation made before it. */
  async reserve(subject: Subject, amounts: { tokens: number; costMicros: number }, now: number): Promise<Reservation> {
    const bucket = bucketOf(now);
    const ttl = 3 * reservationBucketMs;
    const tokensKey = reservationKey(subject, 'tokens', bucket);
    const costKey = reservationKey(subject, 'costMicros', bucket);
    const [bucketTokens, bucketCostMicros] = await Promise.all([
      this.coord.incrementBy(tokensKey, amounts.tokens, ttl),
      this.coord.incrementBy(costKey, amounts.costMicros, ttl),
    ]);
    let released = false;
    return {
      subject,
      bucketTokens,
      bucketCostMicros,
      release: async () => {
        if (released) return;
        released = true;
        await Promise.all([
          this.coord.incrementBy(tokensKey, -amounts.tokens, ttl),
          this.coord.incrementBy(costKey, -amounts.costMicros, ttl),
        ]).catch(() => undefined);
      },
    };
  }
}
