import type { ThrashGuardPin } from './pins.js';

/** Turns of suppression once the guard trips ("a few turns"). */
export const thrashCooloffTurns = 3;

export interface ThrashVerdict {
  /** Cache-busting strategies are suppressed this turn (reason `pin_thrash`). */
  readonly suppress: boolean;
  readonly next: ThrashGuardPin;
}

/**
 * Two counters: consecutive turns whose pin discards outnumbered their replays, and turns of cooloff left. Only a
 * second consecutive thrashing turn trips the guard; a single all-miss turn (a client that compacted its history
 * once) never does. Existing pins keep replaying during the cooloff; only fresh cache-busting decisions stop.
 */
export function updateThrashGuard(
  previous: ThrashGuardPin | undefined,
  replayed: number,
  discarded: number,
): ThrashVerdict {
  const strikes = discarded > replayed ? (previous?.strikes ?? 0) + 1 : 0;
  if (strikes >= 2)
    return { suppress: true, next: { v: 1, kind: 'pin_thrash_guard', strikes: 0, cooloff: thrashCooloffTurns - 1 } };
  const cooloff = previous?.cooloff ?? 0;
  return {
    suppress: cooloff > 0,
    next: { v: 1, kind: 'pin_thrash_guard', strikes, cooloff: Math.max(0, cooloff - 1) },
  };
}
