import type { UserDataSource } from '../users/user-data.js';

/** Enrollment links minted for one developer (GDPR export and erase); never the token's hash. */
export const enrollmentUserDataSource: UserDataSource = {
  name: 'enrollmentLinks',
  async export(db, user) {
    return (
      await db.query(
        'SELECT id, team, label, tenant, max_uses, uses, expires_at, revoked_at, created_by, created_at FROM gw_enrollment_links WHERE lower(user_id) = lower($1) ORDER BY created_at',
        [user],
      )
    ).rows;
  },
  async erase(db, user) {
    return (await db.query('DELETE FROM gw_enrollment_links WHERE lower(user_id) = lower($1)', [user])).rowCount;
  },
};
