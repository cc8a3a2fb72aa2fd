import type { Clock, Coord } from '@gw/platform';

export type ThrottleDecision =
  { kind: 'go' } | { kind: 'wait'; waitMs: number } | { kind: 'refuse'; retryAfterMs: number };

/**
 * A provider 429 pauses that seat's requests on every replica (Coord). A later request waits out a
 * short pause server-side (up to `GW_ANTHROPIC_THROTTLE_WAIT_MS`; 0 = never wait) and is refused with Retry-After
 * when the pause is longer, instead of hammering a seat the provider already throttled.
 */
export class ThrottleGate {
  constructor(
    private readonly coord: Coord,
    private readonly clock: Clock,
    /** `GW_ANTHROPIC_THROTTLE_WAIT_MS`: the longest pause served server-side; 0 = never wait. */
    readonly maxWaitMs: number,
  ) {}

  private key(seat: string): string {
    return `throttle:${seat}`;
  }

  async check(seat: string): Promise<ThrottleDecision> {
    let until: number;
    try {
      until = Number((await this.coord.getValue(this.key(seat))) ?? 0);
    } catch {
      return { kind: 'go' }; // a coordination outage must not stop traffic
    }
    const remaining = until - this.clock.now();
    if (!(remaining > 0)) return { kind: 'go' };
    return remaining <= this.maxWaitMs
      ? { kind: 'wait', waitMs: remaining }
      : { kind: 'refuse', retryAfterMs: remaining };
  }

  /** Record a provider 429 with its retry hint; without a hint there is nothing to pause for. */
  async throttled(seat: string, retryAfterMs: number | null): Promise<void> {
    if (retryAfterMs === null || retryAfterMs <= 0) return;
    const until = this.clock.now() + retryAfterMs;
    await this.coord.setValue(this.key(seat), String(until), retryAfterMs).catch(() => undefined);
  }
}

/** Retry-After (seconds or HTTP date) or retry-after-ms, in milliseconds; null when absent or unreadable. */
export function retryAfterMsOf(headers: Record<string, string | string[] | undefined>, now: number): number | null {
  const ms = headers['retry-after-ms'];
  if (typeof ms === 'string' && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const value = headers['retry-after'];
  if (typeof value !== 'string') return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(date - now, 0) : null;
}
