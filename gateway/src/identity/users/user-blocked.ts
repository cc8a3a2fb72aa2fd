import type { Queryable } from '@gw/platform';

/**
 * A developer an administrator revoked, or the identity provider deactivated, whatever the case of the address: no new
 * key may be minted for them, whichever door they come through (an enrollment link, a CLI login).
 */
export async function isUserBlocked(db: Queryable, user: string): Promise<boolean> {
  const { rows } = await db.query<{ blocked: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM gw_revoked_users WHERE lower(email) = lower($1))
         OR EXISTS (SELECT 1 FROM gw_users WHERE lower(user_id) = lower($1) AND NOT active) AS blocked`,
    [user],
  );
  return rows[0]?.blocked === true;
}
