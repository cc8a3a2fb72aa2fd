import type { Clock, Coord } from '@gw/platform';

export type ThrottleDecision =
  { kind: 'go' } | { kind: 'wait'; waitMs: number } | { kind: 'refuse'; retryAfterMs: number };

/** Where replicas tell each other about a pause, and how often a replica re-reads a seat's pause from Coord. */
const pausesChannel = 'throttle:paused';
const rereadMs = 1_000;
const maxRemembered = 10_000;

/**
 * A provider 429 pauses that seat's requests on every replica. A later request waits out a short pause
 * server-side (up to `GW_ANTHROPIC_THROTTLE_WAIT_MS`; 0 = never wait) and is refused with Retry-After when the pause
 * is longer, instead of hammering a seat the provider already throttled.
 *
 * The check runs before every provider call, so it reads this replica's own view of the pauses rather than Coord:
 * its own 429s, the pauses other replicas publish, and, at most once a second per seat and off the request's path,
 * the pause stored in Coord (Redis pub/sub is at-most-once, and a replica started after a pause never heard it). A
 * replica that has not learned of a pause yet sends one request the provider answers with the same 429, and pauses.
 */
export class ThrottleGate {
  private readonly pausedUntil = new Map<string, number>();
  private readonly rereadAt = new Map<string, number>();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly coord: Coord,
    private readonly clock: Clock,
    /** `GW_ANTHROPIC_THROTTLE_WAIT_MS`: the longest pause served server-side; 0 = never wait. */
    readonly maxWaitMs: number,
  ) {}

  /** Hear the pauses other replicas record. */
  async start(): Promise<void> {
    this.unsubscribe = await this.coord.subscribe(pausesChannel, (message) => this.hear(message));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  check(seat: string): ThrottleDecision {
    const now = this.clock.now();
    this.rereadInBackground(seat, now);
    const until = this.pausedUntil.get(seat);
    if (until === undefined) return { kind: 'go' };
    const remaining = until - now;
    if (!(remaining > 0)) {
      this.pausedUntil.delete(seat);
      return { kind: 'go' };
    }
    return remaining <= this.maxWaitMs
      ? { kind: 'wait', waitMs: remaining }
      : { kind: 'refuse', retryAfterMs: remaining };
  }

  /** Record a provider 429 with its retry hint; without a hint there is nothing to pause for. */
  throttled(seat: string, retryAfterMs: number | null): void {
    if (retryAfterMs === null || retryAfterMs <= 0) return;
    const until = this.clock.now() + retryAfterMs;
    this.pause(seat, until);
    // The other replicas' copies follow without holding up this call's answer. A coordination outage must not stop
    // traffic: they then learn of the pause from the provider. The message carries the pause's length, not its end,
    // so a replica whose clock runs behind does not stretch it.
    void Promise.all([
      this.coord.setValue(storedKey(seat), String(until), retryAfterMs),
      this.coord.publish(pausesChannel, JSON.stringify({ seat, retryAfterMs })),
    ]).catch(() => undefined);
  }

  /** Keep the later end when two 429s overlap; an end already past is not a pause. */
  private pause(seat: string, until: number): void {
    if (until > this.clock.now() && until > (this.pausedUntil.get(seat) ?? 0)) this.pausedUntil.set(seat, until);
  }

  private hear(message: string): void {
    try {
      const { seat, retryAfterMs } = JSON.parse(message) as { seat?: unknown; retryAfterMs?: unknown };
      if (typeof seat === 'string' && typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs))
        this.pause(seat, this.clock.now() + retryAfterMs);
    } catch {
      // Not a pause this version publishes: ignored.
    }
  }

  private rereadInBackground(seat: string, now: number): void {
    const last = this.rereadAt.get(seat);
    if (last !== undefined && now >= last && now - last < rereadMs) return;
    // Seats are providers and subscription seats; a bound keeps made-up seat tokens from growing it without end.
    if (this.rereadAt.size >= maxRemembered) this.rereadAt.clear();
    this.rereadAt.set(seat, now);
    this.coord.getValue(storedKey(seat)).then(
      (stored) => {
        const until = Number(stored ?? 0);
        if (Number.isFinite(until)) this.pause(seat, until);
      },
      () => undefined,
    );
  }
}

const storedKey = (seat: string) => `throttle:${seat}`;

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
