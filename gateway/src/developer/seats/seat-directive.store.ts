import { isoOrNull, randomToken, type Clock, type Db, isoTimestamp } from '@gw/platform';
import type { DirectiveKind, DirectiveRecord, DirectiveResult } from './seat-directive.schema.js';
import { markOffboarded } from './seat.store.js';
import type { SeatRef } from './seat.js';

interface DirectiveRow {
  id: string;
  tenant: string;
  seat: string;
  kind: DirectiveKind;
  tool: string | null;
  status: DirectiveRecord['status'];
  result: DirectiveResult | null;
  deliveries: number;
  created_by: string;
  created_at: Date | string;
  delivered_at: Date | string | null;
  closed_at: Date | string | null;
}

const columns =
  'id, tenant, seat, kind, tool, status, result, deliveries, created_by, created_at, delivered_at, closed_at';

function toRecord(row: DirectiveRow): DirectiveRecord {
  return {
    id: row.id,
    tenant: row.tenant === '' ? null : row.tenant,
    user: row.seat,
    kind: row.kind,
    tool: row.tool,
    status: row.status,
    result: row.result,
    deliveries: Number(row.deliveries),
    createdBy: row.created_by,
    createdAt: isoTimestamp(row.created_at),
    deliveredAt: isoOrNull(row.delivered_at),
    closedAt: isoOrNull(row.closed_at),
  };
}

/**
 * Directives queued for developer seats: an administrator queues one, the seat's
 * connect CLI fetches the oldest open one of a kind it can run (re-delivered on every fetch until acked) and acks it
 * `ok` or `failed`. A `revert` acked `ok` also marks the seat offboarded, in the same transaction.
 */
export class SeatDirectiveStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async queue(
    ref: SeatRef,
    input: { kind: DirectiveKind; tool: string | null; createdBy: string },
  ): Promise<DirectiveRecord> {
    const { rows } = await this.db.query<DirectiveRow>(
      `INSERT INTO gw_seat_directives (id, tenant, seat, kind, tool, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${columns}`,
      [
        `dir_${randomToken(12)}`,
        ref.tenant,
        ref.seat,
        input.kind,
        input.tool,
        input.createdBy,
        new Date(this.clock.now()),
      ],
    );
    return toRecord(rows[0]);
  }

  /** Newest first; `tenant` undefined lists every tenant's. */
  async list(filter: {
    tenant?: string | undefined;
    user?: string | undefined;
    open?: boolean;
    limit: number;
  }): Promise<DirectiveRecord[]> {
    const values: unknown[] = [filter.limit];
    const where = ['TRUE'];
    if (filter.tenant !== undefined) where.push(`tenant = $${values.push(filter.tenant)}`);
    if (filter.user !== undefined) where.push(`seat = $${values.push(filter.user.toLowerCase())}`);
    if (filter.open) where.push(`status <> 'closed'`);
    const { rows } = await this.db.query<DirectiveRow>(
      `SELECT ${columns} FROM gw_seat_directives WHERE ${where.join(' AND ')} ORDER BY created_at DESC, seq DESC LIMIT $1`,
      values,
    );
    return rows.map(toRecord);
  }

  /** The oldest open directive of the seat among `kinds`, marked delivered; kinds the client cannot run stay queued. */
  async deliver(ref: SeatRef, kinds: readonly DirectiveKind[]): Promise<DirectiveRecord | null> {
    if (kinds.length === 0) return null;
    const { rows } = await this.db.query<DirectiveRow>(
      `UPDATE gw_seat_directives SET status = 'delivered', deliveries = deliveries + 1, delivered_at = $4
       WHERE id = (SELECT id FROM gw_seat_directives WHERE tenant = $1 AND seat = $2 AND status <> 'closed' AND kind = ANY($3::text[]) ORDER BY seq LIMIT 1)
       RETURNING ${columns}`,
      [ref.tenant, ref.seat, [...kinds], new Date(this.clock.now())],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /**
   * Close one of the seat's own directives. An ack of a directive already closed answers its recorded outcome (a
   * client retrying its ack is not an error); another seat's directive, or an unknown id, is null.
   */
  async ack(
    ref: SeatRef,
    id: string,
    result: DirectiveResult,
  ): Promise<{ record: DirectiveRecord; offboarded: boolean } | null> {
    return this.db.transaction(async (tx) => {
      const now = new Date(this.clock.now());
      const closed = await tx.query<DirectiveRow>(
        `UPDATE gw_seat_directives SET status = 'closed', result = $4, closed_at = $5 WHERE id = $1 AND tenant = $2 AND seat = $3 AND status <> 'closed' RETURNING ${columns}`,
        [id, ref.tenant, ref.seat, result, now],
      );
      const row =
        closed.rows[0] ??
        (
          await tx.query<DirectiveRow>(
            `SELECT ${columns} FROM gw_seat_directives WHERE id = $1 AND tenant = $2 AND seat = $3`,
            [id, ref.tenant, ref.seat],
          )
        ).rows[0];
      if (!row) return null;
      const offboarded = row.kind === 'revert' && row.result === 'ok';
      if (closed.rows[0] && offboarded) await markOffboarded(tx, ref, now);
      return { record: toRecord(row), offboarded };
    });
  }
}
