import type { Coord, Logger, RateDecision } from '@gw/platform';

// Admin v1 request rate, 300 per minute per principal.
export const adminV1RateLimit = { limit: 300, windowMs: 60_000 } as const;

/**
 * Per-principal sliding window shared by every replica through Coord. A limiter outage fails open: the admin plane
 * (and the break-glass admin token) must stay usable while Redis is down.
 */
export function adminV1RateLimiter(coord: Coord, logger: Logger): (actor: string) => Promise<RateDecision | null> {
  return async (actor) => {
    try {
      return await coord.rateLimit(`admin-v1-rate:${actor}`, adminV1RateLimit.limit, adminV1RateLimit.windowMs);
    } catch (error) {
      logger.warn({ err: error }, 'admin v1 rate limiter unavailable; admitting');
      return null;
    }
  };
}
