import { isoTimestamp } from '@gw/platform';
import { randomUUID } from 'node:crypto';
import type { Clock, Db, Queryable } from '@gw/platform';
import { badRequest, uniquenessConflict } from './protocol/scim-error.js';
import { recomputeMappings } from './scim-mapping.js';
import type { PushdownColumns, SqlCondition } from './scim-filter-sql.js';
import type { ListSource } from './scim-list.js';
import { readScimSettings } from './scim-settings.store.js';
import { jsonArray, type ScimUserStore } from './scim-users.store.js';

export interface ScimGroupRecord {
  id: string;
  displayName: string;
  externalId: string | null;
  members: Array<{ id: string; userName: string }>;
  version: number;
  created: string;
  lastModified: string;
}

/** A member as the identity provider names it: a user id, or (on create) an address in `value` or `display`. */
export interface MemberReference {
  value: string;
  display?: string | undefined;
}

export interface GroupWrite {
  displayName: string;
  externalId: string | null;
  members: readonly MemberReference[];
}

interface GroupRow {
  id: string;
  display_name: string;
  external_id: string | null;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
  members: Array<{ id: string; userName: string }> | string | null;
}

/** Filters the store answers itself; displayName compares without case, id and externalId exactly. */
export const groupPushdownColumns: PushdownColumns = {
  displayname: { type: 'string', sql: (parameter) => `lower(g.display_name) = lower(${parameter})` },
  externalid: { type: 'string', sql: (parameter) => `g.external_id = ${parameter}` },
  id: { type: 'string', sql: (parameter) => `g.id = ${parameter}` },
};

const selectGroups = `SELECT g.id, g.seq::text AS seq, g.display_name, g.external_id, g.version, g.created_at, g.updated_at,
       COALESCE((SELECT json_agg(json_build_object('id', u.id, 'userName', u.user_name) ORDER BY u.seq)
                   FROM gw_scim_members m JOIN gw_scim_users u ON u.id = m.user_id WHERE m.group_id = g.id), '[]'::json) AS members
  FROM gw_scim_groups g`;

const toRecord = (row: GroupRow): ScimGroupRecord => ({
  id: row.id,
  displayName: row.display_name,
  externalId: row.external_id,
  members: jsonArray(row.members),
  version: row.version,
  created: isoTimestamp(row.created_at),
  lastModified: isoTimestamp(row.updated_at),
});

/** A member named only by its address, provisioned by a group write: the address is its one, primary, e-mail. */
const provisionedMember = (address: string) => ({
  userName: address,
  externalId: null,
  displayName: null,
  givenName: null,
  familyName: null,
  userType: null,
  active: true,
  emails: [{ value: address, type: null, primary: true, display: null }],
});

const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const uniqueness = (name: string) => uniquenessConflict(`A group with displayName "${name}" already exists.`);

/**
 * The identity provider's groups. Membership drives each user's team and administrator flag, so every
 * write recomputes the mapping of the users it touched, in the same transaction.
 */
export class ScimGroupStore implements ListSource<ScimGroupRecord> {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly users: ScimUserStore,
  ) {}

  async get(id: string, db: Queryable = this.db): Promise<ScimGroupRecord | null> {
    const { rows } = await db.query<GroupRow>(`${selectGroups} WHERE g.id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** A page of groups in creation order, optionally narrowed by an SQL condition on `g` (scim-filter-sql.ts). */
  async page(
    condition: SqlCondition | null,
    offset: number,
    limit: number,
  ): Promise<{ total: number; records: ScimGroupRecord[] }> {
    const where = condition ? `WHERE ${condition.sql}` : '';
    const params = condition?.params ?? [];
    const total = await this.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM gw_scim_groups g ${where}`,
      params,
    );
    const { rows } = await this.db.query<GroupRow>(
      `${selectGroups} ${where} ORDER BY g.seq LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    return { total: total.rows[0]?.total ?? 0, records: rows.map(toRecord) };
  }

  async batchAfter(after: string | null, limit: number): Promise<Array<{ seq: string; record: ScimGroupRecord }>> {
    const { rows } = await this.db.query<GroupRow & { seq: string }>(
      `${selectGroups} WHERE g.seq > $1::bigint ORDER BY g.seq LIMIT $2`,
      [after ?? '0', limit],
    );
    return rows.map((row) => ({ seq: row.seq, record: toRecord(row) }));
  }

  async create(group: GroupWrite): Promise<ScimGroupRecord> {
    return this.db.transaction(async (tx) => {
      await this.assertNameFree(tx, group.displayName, null);
      const id = randomUUID();
      const at = new Date(this.clock.now());
      await tx.query(
        'INSERT INTO gw_scim_groups (id, display_name, external_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)',
        [id, group.displayName, group.externalId, at],
      );
      const memberIds = await this.resolveMembers(tx, group.members);
      await this.setMembers(tx, id, memberIds, []);
      return (await this.get(id, tx)) as ScimGroupRecord;
    });
  }

  /** Replace name, external id and members (PUT); null when there is no such group. */
  async replace(id: string, group: GroupWrite): Promise<ScimGroupRecord | null> {
    return this.update(id, () => group);
  }

  /**
   * Read, change and write one group in one transaction holding its row lock (PATCH): identity providers send
   * membership changes in parallel, and each must apply to the members the previous one left.
   */
  async update(id: string, change: (current: ScimGroupRecord) => GroupWrite): Promise<ScimGroupRecord | null> {
    return this.db.transaction(async (tx) => {
      const locked = await tx.query('SELECT id FROM gw_scim_groups WHERE id = $1 FOR UPDATE', [id]);
      if (locked.rows.length === 0) return null;
      const current = await this.get(id, tx);
      if (!current) return null;
      const group = change(current);
      await this.assertNameFree(tx, group.displayName, id);
      await tx.query(
        'UPDATE gw_scim_groups SET display_name = $2, external_id = $3, version = version + 1, updated_at = $4 WHERE id = $1',
        [id, group.displayName, group.externalId, new Date(this.clock.now())],
      );
      const memberIds = await this.resolveMembers(tx, group.members);
      // A renamed group can change the mapping of members who stay.
      await this.setMembers(
        tx,
        id,
        memberIds,
        current.members.map((member) => member.id),
      );
      return this.get(id, tx);
    });
  }

  async delete(id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ user_id: string }>('SELECT user_id FROM gw_scim_members WHERE group_id = $1', [
        id,
      ]);
      const deleted = await tx.query('DELETE FROM gw_scim_groups WHERE id = $1', [id]);
      if (deleted.rowCount === 0) return false;
      await recomputeMappings(
        tx,
        await readScimSettings(tx),
        rows.map((row) => row.user_id),
        new Date(this.clock.now()),
      );
      return true;
    });
  }

  private async assertNameFree(tx: Queryable, displayName: string, self: string | null): Promise<void> {
    const { rows } = await tx.query<{ id: string }>(
      'SELECT id FROM gw_scim_groups WHERE lower(display_name) = lower($1)',
      [displayName],
    );
    if (rows.some((row) => row.id !== self)) throw uniqueness(displayName);
  }

  /**
   * Member references to user ids: a provisioned user's id, else an
   * address in `value` or `display` naming a provisioned user, else that address provisioned as a new active user.
   * Anything else is an unknown member.
   */
  private async resolveMembers(tx: Queryable, members: readonly MemberReference[]): Promise<string[]> {
    const ids: string[] = [];
    for (const member of members) {
      const known = await tx.query<{ id: string }>('SELECT id FROM gw_scim_users WHERE id = $1 AND NOT deleted', [
        member.value,
      ]);
      const address = [member.value, member.display].find(
        (candidate): candidate is string => typeof candidate === 'string' && emailShape.test(candidate),
      );
      let id = known.rows[0]?.id;
      // A member the identity provider deleted is not "missing": adding it to a group must not bring it back.
      if (
        !id &&
        address &&
        (await tx.query('SELECT 1 FROM gw_scim_users WHERE lower(user_name) = lower($1) AND deleted', [address])).rows
          .length > 0
      ) {
        throw badRequest(`Member "${address}" was deleted; provision it again with POST /Users first.`, 'invalidValue');
      }
      if (!id && address)
        id =
          (await this.users.findByUserName(address, tx))?.id ??
          (await this.users.create(provisionedMember(address), tx)).id;
      if (!id) throw badRequest(`Member "${member.value}" is not a provisioned user.`, 'invalidValue');
      if (!ids.includes(id)) ids.push(id);
    }
    return ids;
  }

  private async setMembers(
    tx: Queryable,
    groupId: string,
    memberIds: readonly string[],
    previous: readonly string[],
  ): Promise<void> {
    await tx.query('DELETE FROM gw_scim_members WHERE group_id = $1', [groupId]);
    if (memberIds.length > 0)
      await tx.query('INSERT INTO gw_scim_members (group_id, user_id) SELECT $1, unnest($2::text[])', [
        groupId,
        memberIds,
      ]);
    await recomputeMappings(
      tx,
      await readScimSettings(tx),
      [...new Set([...memberIds, ...previous])],
      new Date(this.clock.now()),
    );
  }
}
