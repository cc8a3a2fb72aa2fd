import type { Clock, Coord } from '@gw/platform';

/** A retrieval lease lasts 6 hours from its last renewal. */
export const retrievalLeaseMs = 6 * 60 * 60 * 1000;

/**
 * How long a lapsed lease is remembered, so the pre-call hook can tell a caller whose retrieval went quiet
 * (`lease_lapsed`) from one that never had any (`none`).
 */
export const lapsedLeaseMemoryMs = 30 * 24 * 60 * 60 * 1000;

/** Where a key stands on retrieval: a live lease, one that lapsed, or none on record. */
export type LeaseStanding = 'live' | 'lapsed' | 'none';

/**
 * The retrieval lease per key (the contract's "retrieval lease"; the contract "authenticated retrieval activity less
 * than 6 hours old"). Renewed by any valid `/mcp` message, `POST /connect/mcp-heartbeat` or a model retrieval call;
 * the pre-call hook reads it to decide `clientCanRetrieve`. Kept on Coord so every replica sees the same lease.
 * The value is the expiry instant, compared against the injected clock, so a fake clock drives it on either Coord.
 */
export class RetrievalLeaseStore {
  constructor(
    private readonly coord: Coord,
    private readonly clock: Clock,
    private readonly leaseMs = retrievalLeaseMs,
  ) {}

  /** Extend the key's lease to now + 6 h; returns the new expiry (epoch ms). */
  async renew(keyId: string): Promise<number> {
    const expiresAt = this.clock.now() + this.leaseMs;
    // The entry outlives the lease so a lapse stays visible; liveness is the stored expiry against the clock.
    await this.coord.setValue(leaseKey(keyId), String(expiresAt), this.leaseMs + lapsedLeaseMemoryMs);
    return expiresAt;
  }

  /** Expiry of a live lease, or null when none. Throws when Coord cannot answer. */
  async expiresAt(keyId: string): Promise<number | null> {
    const value = await this.coord.getValue(leaseKey(keyId));
    const expiresAt = value === null ? Number.NaN : Number(value);
    return Number.isFinite(expiresAt) && expiresAt > this.clock.now() ? expiresAt : null;
  }

  /** Live, lapsed or none. Throws when Coord cannot answer. */
  async standing(keyId: string): Promise<LeaseStanding> {
    const value = await this.coord.getValue(leaseKey(keyId));
    const expiresAt = value === null ? Number.NaN : Number(value);
    if (!Number.isFinite(expiresAt)) return 'none';
    return expiresAt > this.clock.now() ? 'live' : 'lapsed';
  }

  /**
   * True while the key holds a live lease. A Coord outage answers false: without proof the client can retrieve,
   * reversible trimming must not run, so the safe answer is "cannot retrieve".
   */
  async isLeased(keyId: string): Promise<boolean> {
    try {
      return (await this.expiresAt(keyId)) !== null;
    } catch {
      return false;
    }
  }
}

function leaseKey(keyId: string): string {
  return `retrieval-lease:${keyId}`;
}
