import { sha256Hex, type Clock, type Db } from '@gw/platform';
import type { SeatRef } from './seat.js';

/** A device token lives 300 to 3,900 seconds; the requested TTL is clamped into that range. */
export const deviceTokenTtlSeconds = { min: 300, max: 3_900 } as const;

export function clampDeviceTokenTtl(ttlSeconds: number): number {
  return Math.min(deviceTokenTtlSeconds.max, Math.max(deviceTokenTtlSeconds.min, Math.round(ttlSeconds)));
}

/**
 * Short-lived device tokens: the connect CLI generates the token, the gateway
 * keeps only its SHA-256 keyed to the seat, and the device page accepts it alone. One live token per seat: a new
 * registration revokes the previous one.
 */
export class DeviceTokenStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Register the seat's token; null when the token is live on another seat (it is never moved between seats). */
  async register(
    ref: SeatRef,
    token: string,
    ttlSeconds: number,
  ): Promise<{ expiresAt: string; ttlSeconds: number } | null> {
    const ttl = clampDeviceTokenTtl(ttlSeconds);
    const now = new Date(this.clock.now());
    const expiresAt = new Date(now.getTime() + ttl * 1000);
    const hash = sha256Hex(token);
    const inserted = await this.db.transaction(async (tx) => {
      await tx.query(
        'DELETE FROM gw_device_tokens WHERE (tenant = $1 AND seat = $2) OR (token_hash = $3 AND expires_at <= $4)',
        [ref.tenant, ref.seat, hash, now],
      );
      const { rowCount } = await tx.query(
        'INSERT INTO gw_device_tokens (token_hash, tenant, seat, expires_at, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (token_hash) DO NOTHING',
        [hash, ref.tenant, ref.seat, expiresAt, now],
      );
      return rowCount > 0;
    });
    return inserted ? { expiresAt: expiresAt.toISOString(), ttlSeconds: ttl } : null;
  }

  /** Idempotent: true when a token was live. */
  async revoke(ref: SeatRef): Promise<boolean> {
    const { rows } = await this.db.query<{ expires_at: Date | string }>(
      'DELETE FROM gw_device_tokens WHERE tenant = $1 AND seat = $2 RETURNING expires_at',
      [ref.tenant, ref.seat],
    );
    return rows.some((row) => new Date(row.expires_at).getTime() > this.clock.now());
  }

  /** The seat a live token opens, or null (unknown, expired or revoked). */
  async resolve(token: string): Promise<SeatRef | null> {
    const { rows } = await this.db.query<{ tenant: string; seat: string }>(
      'SELECT tenant, seat FROM gw_device_tokens WHERE token_hash = $1 AND expires_at > $2',
      [sha256Hex(token), new Date(this.clock.now())],
    );
    return rows[0] ?? null;
  }
}
