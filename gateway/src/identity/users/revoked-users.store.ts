import { isoTimestamp } from '@gw/platform';
import type { Clock, Db } from '@gw/platform';
import { refreshUserActive } from './user-active.js';

export interface RevokedUser {
  email: string;
  reason: string | null;
  revokedBy: string;
  revokedAt: string;
}

interface RevokedRow {
  email: string;
  reason: string | null;
  revoked_by: string;
  revoked_at: Date | string;
}

const toRecord = (row: RevokedRow): RevokedUser => ({
  email: row.email,
  reason: row.reason,
  revokedBy: row.revoked_by,
  revokedAt: isoTimestamp(row.revoked_at),
});

/**
 * Revoked developers. Revoking deactivates the user in the same transaction, so every
 * key they hold answers 401 `user_deactivated` on the next request on every replica; reinstating reactivates them.
 */
export class RevokedUserStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<RevokedUser[]> {
    const { rows } = await this.db.query<RevokedRow>(
      'SELECT email, reason, revoked_by, revoked_at FROM gw_revoked_users ORDER BY revoked_at, email',
    );
    return rows.map(toRecord);
  }

  async revoke(email: string, reason: string | null, revokedBy: string): Promise<RevokedUser> {
    const at = new Date(this.clock.now());
    return this.db.transaction(async (tx) => {
      // Revoking twice keeps the first time and actor; a new reason replaces the old one.
      const { rows } = await tx.query<RevokedRow>(
        `INSERT INTO gw_revoked_users (email, reason, revoked_by, revoked_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (email) DO UPDATE SET reason = COALESCE(EXCLUDED.reason, gw_revoked_users.reason)
         RETURNING email, reason, revoked_by, revoked_at`,
        [email, reason, revokedBy, at],
      );
      await refreshUserActive(tx, email, at);
      return toRecord(rows[0]);
    });
  }

  /** Reinstate; false when the user was not on the list. */
  async reinstate(email: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // Any spelling of the address that was revoked is reinstated with it.
      const { rowCount } = await tx.query('DELETE FROM gw_revoked_users WHERE lower(email) = lower($1)', [email]);
      if (rowCount > 0) await refreshUserActive(tx, email, new Date(this.clock.now()));
      return rowCount > 0;
    });
  }
}
