import type { Queryable } from '@gw/platform';

/**
 * Recompute the flag the identity stage re-reads on every request for one developer, from both
 * sources that can block them: an administrator's revocation (`gw_revoked_users`) and the identity provider's SCIM
 * deactivation or delete (`gw_scim_users`, under its current address or any it had before a rename). Writers recompute rather than set it, so reinstating a revoked developer
 * whom SCIM deactivated keeps them blocked, and SCIM reactivating a revoked developer does not let them back in.
 *
 * Addresses compare case-insensitively: a key names its user as minted (`Ada@example.com`), the identity provider
 * and an administrator may spell it otherwise. Every spelling on record gets the same flag. Returns the flag.
 */
export async function refreshUserActive(db: Queryable, user: string, at: Date): Promise<boolean> {
  const { rows } = await db.query<{ active: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM gw_revoked_users WHERE lower(email) = lower($1))
        AND NOT EXISTS (SELECT 1 FROM gw_scim_users WHERE (lower(user_name) = lower($1) OR lower($1) = ANY(former_user_names)) AND NOT active) AS active`,
    [user],
  );
  const active = rows[0]?.active !== false;
  const updated = await db.query('UPDATE gw_users SET active = $2, updated_at = $3 WHERE lower(user_id) = lower($1)', [
    user,
    active,
    at,
  ]);
  if (updated.rowCount === 0) {
    await db.query(
      `INSERT INTO gw_users (user_id, active, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET active = EXCLUDED.active, updated_at = EXCLUDED.updated_at`,
      [user, active, at],
    );
  }
  return active;
}
