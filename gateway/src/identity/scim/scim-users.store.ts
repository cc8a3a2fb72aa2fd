import { isoTimestamp } from '@gw/platform';
import { randomUUID } from 'node:crypto';
import type { Clock, Db, Queryable } from '@gw/platform';
import { refreshUserActive } from '../users/user-active.js';
import { markEnrollmentChanged } from './enrollment-outbox.js';
import type { ScimEmail } from './protocol/emails.js';
import { uniquenessConflict } from './protocol/scim-error.js';
import type { ScimUserAttributes } from './protocol/user-patch.js';
import type { PushdownColumns, SqlCondition } from './scim-filter-sql.js';
import type { ListSource } from './scim-list.js';

export interface ScimUserRecord extends ScimUserAttributes {
  id: string;
  team: string | null;
  admin: boolean;
  version: number;
  created: string;
  lastModified: string;
  groups: Array<{ id: string; displayName: string }>;
}

interface UserRow {
  id: string;
  user_name: string;
  external_id: string | null;
  display_name: string | null;
  given_name: string | null;
  family_name: string | null;
  user_type: string | null;
  active: boolean;
  emails: ScimEmail[] | string | null;
  team: string | null;
  admin: boolean;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
  groups: Array<{ id: string; displayName: string }> | string | null;
}

/**
 * Filters the store answers itself (the rest are evaluated in memory, scim-list.ts): each expression compares as the
 * attribute's schema says, userName, displayName and addresses without case, id and externalId exactly.
 */
export const userPushdownColumns: PushdownColumns = {
  username: { type: 'string', sql: (parameter) => `lower(u.user_name) = lower(${parameter})` },
  externalid: { type: 'string', sql: (parameter) => `u.external_id = ${parameter}` },
  id: { type: 'string', sql: (parameter) => `u.id = ${parameter}` },
  displayname: { type: 'string', sql: (parameter) => `lower(u.display_name) = lower(${parameter})` },
  active: { type: 'boolean', sql: (parameter) => `u.active = ${parameter}` },
  ...Object.fromEntries(
    ['emails', 'emails.value'].map((key) => [
      key,
      {
        type: 'string',
        sql: (parameter: string) =>
          `EXISTS (SELECT 1 FROM jsonb_array_elements(u.emails) AS e WHERE lower(e->>'value') = lower(${parameter}))`,
      },
    ]),
  ),
};

const selectUsers = `SELECT u.id, u.seq::text AS seq, u.user_name, u.external_id, u.display_name, u.given_name, u.family_name, u.user_type, u.active, u.emails,
       u.team, u.admin, u.version, u.created_at, u.updated_at,
       COALESCE((SELECT json_agg(json_build_object('id', g.id, 'displayName', g.display_name) ORDER BY lower(g.display_name))
                   FROM gw_scim_members m JOIN gw_scim_groups g ON g.id = m.group_id WHERE m.user_id = u.id), '[]'::json) AS groups
  FROM gw_scim_users u`;

/** A `json_agg` column: an array from pg, the JSON text from PGlite. */
export const jsonArray = <T>(value: T[] | string | null): T[] =>
  typeof value === 'string' ? (JSON.parse(value) as T[]) : (value ?? []);

const toRecord = (row: UserRow): ScimUserRecord => ({
  id: row.id,
  userName: row.user_name,
  externalId: row.external_id,
  displayName: row.display_name,
  givenName: row.given_name,
  familyName: row.family_name,
  userType: row.user_type,
  active: row.active,
  emails: jsonArray(row.emails),
  team: row.team,
  admin: row.admin,
  version: row.version,
  created: isoTimestamp(row.created_at),
  lastModified: isoTimestamp(row.updated_at),
  groups: jsonArray(row.groups),
});

const uniqueness = (userName: string) => uniquenessConflict(`A user with userName "${userName}" already exists.`);

/**
 * The identity provider's users. Every write that can change whether a user may call the gateway
 * recomputes `gw_users.active` in the same transaction, so `active:false` or a delete answers 401 `user_deactivated`
 * on the user's next request on every replica.
 */
export class ScimUserStore implements ListSource<ScimUserRecord> {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async get(id: string, db: Queryable = this.db): Promise<ScimUserRecord | null> {
    const { rows } = await db.query<UserRow>(`${selectUsers} WHERE u.id = $1 AND NOT u.deleted`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async findByUserName(userName: string, db: Queryable = this.db): Promise<ScimUserRecord | null> {
    const { rows } = await db.query<UserRow>(`${selectUsers} WHERE lower(u.user_name) = lower($1) AND NOT u.deleted`, [
      userName,
    ]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** A page of users in creation order, optionally narrowed by an SQL condition on `u` (scim-filter-sql.ts). */
  async page(
    condition: SqlCondition | null,
    offset: number,
    limit: number,
  ): Promise<{ total: number; records: ScimUserRecord[] }> {
    const where = condition ? `AND ${condition.sql}` : '';
    const params = condition?.params ?? [];
    const total = await this.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM gw_scim_users u WHERE NOT u.deleted ${where}`,
      params,
    );
    const { rows } = await this.db.query<UserRow>(
      `${selectUsers} WHERE NOT u.deleted ${where} ORDER BY u.seq LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    return { total: total.rows[0]?.total ?? 0, records: rows.map(toRecord) };
  }

  async batchAfter(after: string | null, limit: number): Promise<Array<{ seq: string; record: ScimUserRecord }>> {
    const { rows } = await this.db.query<UserRow & { seq: string }>(
      `${selectUsers} WHERE NOT u.deleted AND u.seq > $1::bigint ORDER BY u.seq LIMIT $2`,
      [after ?? '0', limit],
    );
    return rows.map((row) => ({ seq: row.seq, record: toRecord(row) }));
  }

  /** Create; the same address deleted before comes back as a new resource (a soft-deleted row is reused). */
  async create(attributes: ScimUserAttributes, db?: Queryable): Promise<ScimUserRecord> {
    const work = async (tx: Queryable) => {
      const at = new Date(this.clock.now());
      const { rows } = await tx.query<{ id: string; deleted: boolean }>(
        'SELECT id, deleted FROM gw_scim_users WHERE lower(user_name) = lower($1)',
        [attributes.userName],
      );
      const existing = rows[0];
      if (existing && !existing.deleted) throw uniqueness(attributes.userName);
      const id = randomUUID();
      const values = [
        id,
        attributes.userName,
        attributes.externalId,
        attributes.displayName,
        attributes.givenName,
        attributes.familyName,
        attributes.userType,
        attributes.active,
        at,
        JSON.stringify(attributes.emails),
      ];
      if (existing) {
        await tx.query(
          `UPDATE gw_scim_users SET id = $1, user_name = $2, external_id = $3, display_name = $4, given_name = $5, family_name = $6, user_type = $7,
             active = $8, emails = $10::jsonb, deleted = false, team = NULL, admin = false, version = 1, created_at = $9, updated_at = $9 WHERE id = $11`,
          [...values, existing.id],
        );
      } else {
        await tx.query(
          `INSERT INTO gw_scim_users (id, user_name, external_id, display_name, given_name, family_name, user_type, active, emails, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $10::jsonb, $9, $9)`,
          values,
        );
      }
      await refreshUserActive(tx, attributes.userName, at);
      await markEnrollmentChanged(tx, [attributes.userName], at);
      return (await this.get(id, tx)) as ScimUserRecord;
    };
    return db ? work(db) : this.db.transaction(work);
  }

  /** Replace every attribute (PUT, and PATCH after applying it); null when there is no such user. */
  async replace(id: string, attributes: ScimUserAttributes): Promise<ScimUserRecord | null> {
    return this.db.transaction(async (tx) => {
      const current = await this.get(id, tx);
      if (!current) return null;
      const at = new Date(this.clock.now());
      const clash = await tx.query<{ id: string }>(
        'SELECT id FROM gw_scim_users WHERE lower(user_name) = lower($1) AND id <> $2',
        [attributes.userName, id],
      );
      if (clash.rows.length > 0) throw uniqueness(attributes.userName);
      const renamed = current.userName.toLowerCase() !== attributes.userName.toLowerCase();
      // A rename keeps the old address on the record, so a deactivation still blocks keys minted under it.
      const { rows } = await tx.query<{ former_user_names: string[] }>(
        `UPDATE gw_scim_users SET user_name = $2, external_id = $3, display_name = $4, given_name = $5, family_name = $6, user_type = $7, active = $8,
           emails = $12::jsonb, former_user_names = CASE WHEN $10 AND NOT (lower($11) = ANY(former_user_names)) THEN array_append(former_user_names, lower($11)) ELSE former_user_names END,
           version = version + 1, updated_at = $9 WHERE id = $1 RETURNING former_user_names`,
        [
          id,
          attributes.userName,
          attributes.externalId,
          attributes.displayName,
          attributes.givenName,
          attributes.familyName,
          attributes.userType,
          attributes.active,
          at,
          renamed,
          current.userName,
          JSON.stringify(attributes.emails),
        ],
      );
      const addresses = new Set([attributes.userName, current.userName, ...(rows[0]?.former_user_names ?? [])]);
      for (const address of addresses) await refreshUserActive(tx, address, at);
      await markEnrollmentChanged(tx, [attributes.userName, current.userName], at);
      return this.get(id, tx);
    });
  }

  /** Soft delete: the user is deactivated and leaves every group; false when there is no such user. */
  async delete(id: string): Promise<{ userName: string; groupIds: string[] } | null> {
    return this.db.transaction(async (tx) => {
      const at = new Date(this.clock.now());
      const { rows } = await tx.query<{ user_name: string; former_user_names: string[] }>(
        'UPDATE gw_scim_users SET deleted = true, active = false, team = NULL, admin = false, updated_at = $2 WHERE id = $1 AND NOT deleted RETURNING user_name, former_user_names',
        [id, at],
      );
      const row = rows[0];
      if (!row) return null;
      const left = await tx.query<{ group_id: string }>(
        'DELETE FROM gw_scim_members WHERE user_id = $1 RETURNING group_id',
        [id],
      );
      for (const address of new Set([row.user_name, ...row.former_user_names]))
        await refreshUserActive(tx, address, at);
      await markEnrollmentChanged(tx, [row.user_name], at);
      return { userName: row.user_name, groupIds: left.rows.map((member) => member.group_id) };
    });
  }
}
