import type { Clock } from '@gw/platform';

/** Remembers used signatures for the replay window. `claim` is true only the first time. */
export interface ReplayStore {
  claim(signature: string, ttlMs: number): Promise<boolean>;
}

/** One replica: an in-process map swept as it grows. */
export class MemoryReplayStore implements ReplayStore {
  private readonly seen = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  async claim(signature: string, ttlMs: number): Promise<boolean> {
    const now = this.clock.now();
    const expiresAt = this.seen.get(signature);
    if (expiresAt !== undefined && expiresAt > now) return false;
    if (this.seen.size >= 10_000) this.sweep(now);
    this.seen.set(signature, now + ttlMs);
    return true;
  }

  private sweep(now: number): void {
    for (const [signature, expiresAt] of this.seen) if (expiresAt <= now) this.seen.delete(signature);
  }
}

/** Many replicas: the shared coordination store, so a signature used on one replica is refused on all. */
export class CoordReplayStore implements ReplayStore {
  // Structural subset of platform's Coord, so any Coord implementation (Redis or in-process) fits.
  constructor(private readonly coord: { setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> }) {}

  claim(signature: string, ttlMs: number): Promise<boolean> {
    return this.coord.setIfAbsent(`optimizer:sig:${signature}`, '1', ttlMs);
  }
}
