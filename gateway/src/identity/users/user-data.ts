import type { Clock, Db, Queryable } from '@gw/platform';
import { randomToken } from '@gw/platform';
import type { AuditStore } from '../../admin/audit/audit.store.js';

/**
 * One place that holds personal data about a developer. GDPR export asks every source; erase runs every source in
 * one transaction. Other issues add their tables (per-user caps, the optimizer stash) by adding a source here.
 */
export interface UserDataSource {
  name: string;
  export(db: Queryable, user: string): Promise<unknown>;
  /** Remove or anonymise; returns the number of rows touched. */
  erase(db: Queryable, user: string, pseudonym: string, at: Date): Promise<number>;
}

/** A table written by another issue may not exist yet (or lack the column); such a source exports nothing. */
async function hasColumn(db: Queryable, table: string, column: string): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = $2 AND NOT attisdropped) AS present',
    [table, column],
  );
  return rows[0]?.present === true;
}

function optionalTable(name: string, table: string, erase: 'delete' | 'anonymise'): UserDataSource {
  return {
    name,
    async export(db, user) {
      if (!(await hasColumn(db, table, 'user_id'))) return [];
      return (await db.query(`SELECT * FROM ${table} WHERE user_id = $1`, [user])).rows;
    },
    async erase(db, user, pseudonym) {
      if (!(await hasColumn(db, table, 'user_id'))) return 0;
      const sql =
        erase === 'delete'
          ? `DELETE FROM ${table} WHERE user_id = $1`
          : `UPDATE ${table} SET user_id = $2 WHERE user_id = $1`;
      return (await db.query(sql, erase === 'delete' ? [user] : [user, pseudonym])).rowCount;
    },
  };
}

const keyColumns =
  'id, type, key_prefix, source, user_id, team, name, label, created_by, created_at, expires_at, revoked_at, rotated_at';

/** The gateway's own sources; `contextSources` are the ones other contexts own (SCIM, seats, enrollment links). */
export function builtInUserDataSources(audit: AuditStore, contextSources: readonly UserDataSource[]): UserDataSource[] {
  return [
    {
      name: 'profile',
      export: async (db, user) =>
        (await db.query('SELECT user_id, active, display_name, updated_at FROM gw_users WHERE user_id = $1', [user]))
          .rows[0] ?? null,
      erase: async (db, user) => (await db.query('DELETE FROM gw_users WHERE user_id = $1', [user])).rowCount,
    },
    {
      name: 'revoked',
      export: async (db, user) =>
        (await db.query('SELECT email, reason, revoked_by, revoked_at FROM gw_revoked_users WHERE email = $1', [user]))
          .rows[0] ?? null,
      erase: async (db, user) => (await db.query('DELETE FROM gw_revoked_users WHERE email = $1', [user])).rowCount,
    },
    ...contextSources,
    {
      // Key metadata only (never hashes). Erase revokes the keys and detaches them from the person.
      name: 'keys',
      export: async (db, user) =>
        (await db.query(`SELECT ${keyColumns} FROM gw_keys WHERE user_id = $1 ORDER BY created_at, id`, [user])).rows,
      erase: async (db, user, pseudonym, at) =>
        (
          await db.query(
            'UPDATE gw_keys SET user_id = $2, label = NULL, revoked_at = COALESCE(revoked_at, $3) WHERE user_id = $1',
            [user, pseudonym, at],
          )
        ).rowCount,
    },
    // Per-user caps belong to the governance issue; exported and deleted when its table exists.
    optionalTable('caps', 'gw_user_caps', 'delete'),
    // Spend rows stay for accounting, anonymised.
    optionalTable('spend', 'gw_spend', 'anonymise'),
    {
      name: 'traces',
      export: async (db, user) =>
        (
          await db.query(
            'SELECT id, created_at, session_id, user_id, team, key_id, endpoint, provider, model, status, latency_ms, prompt_tokens, completion_tokens, cost_usd, optimization_status, content_sealed IS NOT NULL AS has_content FROM gw_traces WHERE user_id = $1 ORDER BY created_at, id',
            [user],
          )
        ).rows,
      erase: async (db, user, pseudonym) =>
        (
          await db.query('UPDATE gw_traces SET user_id = $2, content_sealed = NULL WHERE user_id = $1', [
            user,
            pseudonym,
          ])
        ).rowCount,
    },
    {
      name: 'audit',
      export: async (db, user) => audit.aboutUser(user, db),
      erase: async (db, user, pseudonym) => audit.anonymiseUser(user, pseudonym, db),
    },
  ];
}

/** `{user, exportedAt}` plus one field per source (profile, revoked, scim, keys, caps, spend, traces, audit, …). */
export type UserDataExport = { user: string; exportedAt: string } & Record<string, unknown>;

export interface UserDataErasure {
  user: string;
  pseudonym: string;
  erased: Record<string, number>;
}

/** GDPR export and erase over every personal-data source (the contract users/{user}/export and /data). */
export class UserDataService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sources: readonly UserDataSource[],
  ) {}

  async export(user: string): Promise<UserDataExport> {
    const sources: Record<string, unknown> = {};
    for (const source of this.sources) sources[source.name] = await source.export(this.db, user);
    return { ...sources, user, exportedAt: new Date(this.clock.now()).toISOString() };
  }

  /** Everything in one transaction: either the person is gone from every source or from none. */
  async erase(user: string): Promise<UserDataErasure> {
    const pseudonym = `erased-${randomToken(9)}`;
    const at = new Date(this.clock.now());
    const erased = await this.db.transaction(async (tx) => {
      const counts: Record<string, number> = {};
      for (const source of this.sources) counts[source.name] = await source.erase(tx, user, pseudonym, at);
      return counts;
    });
    return { user, pseudonym, erased };
  }
}
