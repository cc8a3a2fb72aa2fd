import type { Queryable } from '@gw/platform';
import { markEnrollmentChanged } from './enrollment-outbox.js';
import type { ScimSettings } from './scim-settings.schema.js';

export interface UserMapping {
  team: string | null;
  admin: boolean;
}

type MappingSettings = Pick<ScimSettings, 'adminGroup' | 'groupTeamMap'>;

const sameName = (left: string, right: string) => left.localeCompare(right, undefined, { sensitivity: 'accent' }) === 0;

/**
 * A user's team and administrator flag from the names of their groups (the contract SCIM settings, "recomputes
 * team and role mappings"): the team of the first group, by name, that `groupTeamMap` maps; administrator when one
 * group is `adminGroup`. Identity providers do not keep a group name's case stable, so names compare without case.
 */
export function mappingOf(groupNames: readonly string[], settings: MappingSettings): UserMapping {
  const mapped = Object.entries(settings.groupTeamMap);
  const sorted = [...groupNames].sort((left, right) => left.localeCompare(right));
  let team: string | null = null;
  for (const name of sorted) {
    const entry = mapped.find(([group]) => group === name) ?? mapped.find(([group]) => sameName(group, name));
    if (entry) {
      team = entry[1];
      break;
    }
  }
  const adminGroup = settings.adminGroup;
  return { team, admin: adminGroup !== null && groupNames.some((name) => sameName(name, adminGroup)) };
}

interface MembershipRow {
  id: string;
  user_name: string;
  team: string | null;
  admin: boolean;
  groups: string[] | null;
}

/**
 * Store the mapping of the given users (all provisioned users when null) after a membership, group or settings
 * change. Only rows whose mapping changed are written.
 */
export async function recomputeMappings(
  db: Queryable,
  settings: MappingSettings,
  userIds: readonly string[] | null,
  at: Date,
): Promise<void> {
  if (userIds !== null && userIds.length === 0) return;
  const { rows } = await db.query<MembershipRow>(
    `SELECT u.id, u.user_name, u.team, u.admin, array_remove(array_agg(g.display_name), NULL) AS groups
       FROM gw_scim_users u
       LEFT JOIN gw_scim_members m ON m.user_id = u.id
       LEFT JOIN gw_scim_groups g ON g.id = m.group_id
      WHERE NOT u.deleted ${userIds === null ? '' : 'AND u.id = ANY($1::text[])'}
      GROUP BY u.id, u.user_name, u.team, u.admin`,
    userIds === null ? [] : [userIds],
  );
  // Billing's roster carries the role, not the team: only a changed role is reported.
  const roleChanged: string[] = [];
  for (const row of rows) {
    const next = mappingOf(row.groups ?? [], settings);
    if (next.team === row.team && next.admin === row.admin) continue;
    await db.query('UPDATE gw_scim_users SET team = $2, admin = $3 WHERE id = $1', [row.id, next.team, next.admin]);
    if (next.admin !== row.admin) roleChanged.push(row.user_name);
  }
  await markEnrollmentChanged(db, roleChanged, at);
}
