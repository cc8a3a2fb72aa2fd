import type { UserDataSource } from '../users/user-data.js';
import { forgetEnrollmentAddress } from './enrollment-outbox.js';

/**
 * What the identity provider provisioned about a developer, for GDPR export and erase. Erase removes
 * the SCIM user and its memberships; the developer's keys are revoked by the keys source in the same transaction, so
 * losing the SCIM deactivation cannot let anyone back in. The enrolled-identity outbox forgets the address too.
 */
export const scimUserDataSource: UserDataSource = {
  name: 'scim',
  async export(db, user) {
    const { rows } = await db.query(
      `SELECT u.id, u.user_name, u.external_id, u.display_name, u.given_name, u.family_name, u.user_type, u.active, u.emails, u.deleted, u.team, u.admin,
              u.created_at, u.updated_at, array_remove(array_agg(g.display_name ORDER BY g.display_name), NULL) AS groups
         FROM gw_scim_users u
         LEFT JOIN gw_scim_members m ON m.user_id = u.id
         LEFT JOIN gw_scim_groups g ON g.id = m.group_id
        WHERE lower(u.user_name) = lower($1)
        GROUP BY u.id`,
      [user],
    );
    return rows[0] ?? null;
  },
  async erase(db, user) {
    await forgetEnrollmentAddress(db, user);
    return (await db.query('DELETE FROM gw_scim_users WHERE lower(user_name) = lower($1)', [user])).rowCount;
  },
};
