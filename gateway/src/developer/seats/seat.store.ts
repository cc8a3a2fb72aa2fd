import { isoOrNull, type Clock, type Db, type Queryable } from '@gw/platform';
import { complianceScore, type SeatCheck } from './seat-health.schema.js';
import type { SeatRef } from './seat.js';

/** What the gateway knows of a seat: its last doctor report and whether it is offboarded. Content-free. */
export interface SeatRecord {
  tenant: string;
  seat: string;
  checks: SeatCheck[];
  score: number | null;
  clientVersion: string | null;
  reportedAt: string | null;
  offboarded: boolean;
  offboardedAt: string | null;
}

interface SeatRow {
  tenant: string;
  seat: string;
  checks: SeatCheck[] | string;
  client_version: string | null;
  reported_at: Date | string | null;
  offboarded_at: Date | string | null;
  reenrolled: boolean;
}

/**
 * "Re-enrolling clears the mark": a seat is offboarded while no key was minted for its developer
 * after the mark. Derived on read, so the key store needs to know nothing of seats.
 */
const seatColumns = `s.tenant, s.seat, s.checks, s.client_version, s.reported_at, s.offboarded_at,
  EXISTS (SELECT 1 FROM gw_keys k WHERE s.offboarded_at IS NOT NULL AND k.created_at > s.offboarded_at
          AND coalesce(k.tenant, '') = s.tenant AND lower(k.user_id) = s.seat) AS reenrolled`;

function toRecord(row: SeatRow): SeatRecord {
  const checks = typeof row.checks === 'string' ? (JSON.parse(row.checks) as SeatCheck[]) : row.checks;
  const offboarded = row.offboarded_at !== null && !row.reenrolled;
  return {
    tenant: row.tenant,
    seat: row.seat,
    checks,
    score: complianceScore(checks),
    clientVersion: row.client_version,
    reportedAt: isoOrNull(row.reported_at),
    offboarded,
    offboardedAt: offboarded ? isoOrNull(row.offboarded_at) : null,
  };
}

/** Marks a seat offboarded (a `revert` directive acked ok shares it, inside its own transaction). */
export async function markOffboarded(db: Queryable, ref: SeatRef, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO gw_seats (tenant, seat, offboarded_at, created_at) VALUES ($1, $2, $3, $3)
     ON CONFLICT (tenant, seat) DO UPDATE SET offboarded_at = EXCLUDED.offboarded_at`,
    [ref.tenant, ref.seat, at],
  );
}

/** Seats and their doctor reports. */
export class SeatStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The latest report replaces the previous one; a check named twice keeps its last status. */
  async recordHealth(ref: SeatRef, checks: readonly SeatCheck[], clientVersion: string | null): Promise<void> {
    const byName = new Map(checks.map((check) => [check.name, check.status]));
    const kept = [...byName].map(([name, status]) => ({ name, status }));
    const at = new Date(this.clock.now());
    await this.db.query(
      `INSERT INTO gw_seats (tenant, seat, checks, client_version, reported_at, created_at) VALUES ($1, $2, $3::jsonb, $4, $5, $5)
       ON CONFLICT (tenant, seat) DO UPDATE SET checks = EXCLUDED.checks, client_version = EXCLUDED.client_version, reported_at = EXCLUDED.reported_at`,
      [ref.tenant, ref.seat, JSON.stringify(kept), clientVersion, at],
    );
  }

  async offboard(ref: SeatRef): Promise<void> {
    await markOffboarded(this.db, ref, new Date(this.clock.now()));
  }

  async get(ref: SeatRef): Promise<SeatRecord | null> {
    const { rows } = await this.db.query<SeatRow>(
      `SELECT ${seatColumns} FROM gw_seats s WHERE s.tenant = $1 AND s.seat = $2`,
      [ref.tenant, ref.seat],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** The seats of these developers (addresses in any case) in one tenant, or in every tenant (`tenant` undefined). */
  async ofUsers(users: readonly string[], tenant: string | undefined): Promise<SeatRecord[]> {
    if (users.length === 0) return [];
    const values: unknown[] = [users.map((user) => user.toLowerCase())];
    const scope = tenant === undefined ? '' : ` AND s.tenant = $${values.push(tenant)}`;
    const { rows } = await this.db.query<SeatRow>(
      `SELECT ${seatColumns} FROM gw_seats s WHERE s.seat = ANY($1::text[])${scope} ORDER BY s.seat, s.tenant`,
      values,
    );
    return rows.map(toRecord);
  }

  /** Seats of one tenant (or all, `tenant` undefined), most recently reported first. */
  async list(filter: { tenant?: string | undefined; limit: number }): Promise<SeatRecord[]> {
    const values: unknown[] = [filter.limit];
    const where = filter.tenant === undefined ? 'TRUE' : `s.tenant = $${values.push(filter.tenant)}`;
    const { rows } = await this.db.query<SeatRow>(
      `SELECT ${seatColumns} FROM gw_seats s WHERE ${where} ORDER BY s.reported_at DESC NULLS LAST, s.seat LIMIT $1`,
      values,
    );
    return rows.map(toRecord);
  }
}
