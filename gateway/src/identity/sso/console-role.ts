import type { Queryable } from '@gw/platform';
import { roles, type Role } from '../../admin/roles.js';
import type { IdpConfig } from './idp-config.store.js';

interface DirectoryRow {
  user_name: string;
  active: boolean;
  admin: boolean;
  groups: string[] | null;
}

export interface ConsoleMember {
  /** The SCIM userName, as provisioned. */
  userName: string;
  role: Role;
}

const rank = (role: Role) => roles.indexOf(role);
const sameName = (left: string, right: string) => left.localeCompare(right, undefined, { sensitivity: 'accent' }) === 0;

/**
 * A console user's role, read from the SCIM directory on every sign-in and every request: members of the SCIM
 * `adminGroup` (the `admin` flag SCIM keeps current) take the configured admin role, other members take the highest
 * role `roleGroupMap` gives one of their groups. A user the identity provider never provisioned, deactivated or
 * deleted, or who is in no mapped group, holds no role: removing someone from the group ends their console access on
 * their next request.
 */
export async function consoleMemberOf(
  db: Queryable,
  userName: string,
  config: Pick<IdpConfig, 'adminRole' | 'roleGroupMap'>,
): Promise<ConsoleMember | null> {
  const { rows } = await db.query<DirectoryRow>(
    `SELECT u.user_name, u.active, u.admin, array_remove(array_agg(g.display_name), NULL) AS groups
       FROM gw_scim_users u
       LEFT JOIN gw_scim_members m ON m.user_id = u.id
       LEFT JOIN gw_scim_groups g ON g.id = m.group_id
      WHERE lower(u.user_name) = lower($1) AND NOT u.deleted
      GROUP BY u.id, u.user_name, u.active, u.admin`,
    [userName],
  );
  const row = rows[0];
  if (!row || !row.active) return null;
  let role: Role | null = row.admin ? config.adminRole : null;
  for (const group of row.groups ?? []) {
    const mapped = Object.entries(config.roleGroupMap).find(([name]) => sameName(name, group))?.[1];
    if (mapped && (role === null || rank(mapped) > rank(role))) role = mapped;
  }
  return role === null ? null : { userName: row.user_name, role };
}
