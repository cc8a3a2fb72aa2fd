import type { Clock, Db, Queryable } from '@gw/platform';
import { isoOrNull, randomToken } from '@gw/platform';
import type { KeyRecord } from './key.schema.js';
import { hashKey, mintKeyToken, type KeyType } from './key-token.js';
import { KeyReadBatch } from './key-read-batch.js';

interface KeyRow {
  id: string;
  type: KeyType;
  key_prefix: string;
  source: string;
  user_id: string | null;
  team: string;
  name: string | null;
  label: string | null;
  monthly_budget_usd: number | null;
  tenant: string | null;
  created_by: string;
  created_at: Date | string;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  rotated_at: Date | string | null;
}

/** What identity needs per request: the key row plus the holder's active flag, in one indexed read. */
export interface KeyLookup {
  record: KeyRecord;
  userActive: boolean;
}

export interface NewKey {
  type: KeyType;
  source: string;
  user?: string | null;
  team: string;
  name?: string | null;
  label?: string | null;
  monthlyBudgetUsd?: number | null;
  expiresAt?: Date | null;
  /** Fleet mode: the minting principal's tenant; null = a deployment-level key. */
  tenant?: string | null;
  createdBy: string;
}

export type KeyChanges = Partial<{
  label: string | null;
  name: string;
  team: string;
  monthlyBudgetUsd: number | null;
  expiresAt: Date | null;
}>;

/**
 * Which keys an admin call reaches: every key (`{}`), or one tenant's (fleet mode, a tenant-bound principal; spec 000
 * ). A key outside the reach reads as absent, so its existence is not revealed.
 */
export interface KeyReach {
  tenant?: string | undefined;
}

/** ` AND tenant = $n` when the reach is one tenant's, with its parameter appended to `values`. */
function reachClause(reach: KeyReach, values: unknown[]): string {
  if (reach.tenant === undefined) return '';
  values.push(reach.tenant);
  return ` AND tenant = $${values.length}`;
}

type LookupRow = KeyRow & { key_hash: string; user_active: boolean | null };

const columns =
  'id, type, key_prefix, source, user_id, team, name, label, monthly_budget_usd, tenant, created_by, created_at, expires_at, revoked_at, rotated_at';

const lookupColumns = `k.key_hash, k.id, k.type, k.key_prefix, k.source, k.user_id, k.team, k.name, k.label, k.monthly_budget_usd, k.tenant,
       k.created_by, k.created_at, k.expires_at, k.revoked_at, k.rotated_at,
       (SELECT bool_and(u.active) FROM gw_users u WHERE lower(u.user_id) = lower(k.user_id)) AS user_active`;

/** The lookup statement is prepared for these batch sizes only; a batch is padded up to the next one. */
const lookupArities = [1, 2, 4, 8, 16, 32, 64, 128, 256] as const;
const lookupSql = new Map(
  lookupArities.map((arity) => {
    const placeholders = Array.from({ length: arity }, (_, index) => `$${index + 1}`).join(', ');
    return [arity, `SELECT ${lookupColumns} FROM gw_keys k WHERE k.key_hash IN (${placeholders})`];
  }),
);

/**
 * A batch's key read as a fixed-arity `IN ($1, …, $n)` statement, padded by repeating its last hash.
 *
 * Why not `= ANY($1::text[])`: Postgres plans a prepared statement per call until a generic plan looks no costlier
 * than the custom ones, and a custom plan for a one-element array always looks cheaper than the generic estimate (ten
 * rows), so the array form was re-planned on every request: 180–270 µs against 65–95 µs for `IN ($1)` (named
 * statements, 3 ms idle between reads). With a fixed arity both estimates agree, the generic plan is kept after five
 * calls, and a connection holds at most nine such statements.
 */
export function lookupStatement(hashes: readonly string[]): { sql: string; params: string[] } {
  const arity = lookupArities.find((size) => size >= hashes.length);
  if (arity === undefined || hashes.length === 0)
    throw new RangeError(`a key read batch holds 1–256 hashes, not ${hashes.length}`);
  const params = [...hashes];
  while (params.length < arity) params.push(hashes[hashes.length - 1]);
  return { sql: lookupSql.get(arity)!, params };
}

export class KeyStore {
  /** Embedded store only: rows by key hash, each valid while the store's change counter is what it was read at. */
  private readonly embeddedRows = new Map<string, { row: LookupRow | undefined; changes: number }>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private toRecord(row: KeyRow): KeyRecord {
    const now = this.clock.now();
    const expiresAt = isoOrNull(row.expires_at);
    const status = row.revoked_at ? 'revoked' : expiresAt && Date.parse(expiresAt) <= now ? 'expired' : 'active';
    return {
      id: row.id,
      type: row.type,
      source: row.source,
      keyPrefix: row.key_prefix,
      user: row.user_id,
      team: row.team,
      name: row.name,
      label: row.label,
      monthlyBudgetUsd: row.monthly_budget_usd === null ? null : Number(row.monthly_budget_usd),
      tenant: row.tenant,
      status,
      createdAt: isoOrNull(row.created_at) as string,
      createdBy: row.created_by,
      expiresAt,
      revokedAt: isoOrNull(row.revoked_at),
      rotatedAt: isoOrNull(row.rotated_at),
    };
  }

  /** Mint a key: the raw value is returned once and only its hash is stored. `db` lets a caller mint inside its transaction. */
  async create(input: NewKey, db: Queryable = this.db): Promise<{ key: string; record: KeyRecord }> {
    const token = mintKeyToken(input.type);
    const id = `key_${randomToken(12)}`;
    const { rows } = await db.query<KeyRow>(
      `INSERT INTO gw_keys (id, type, key_hash, key_prefix, source, user_id, team, name, label, monthly_budget_usd, tenant, created_by, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING ${columns}`,
      [
        id,
        input.type,
        token.hash,
        token.displayPrefix,
        input.source,
        input.user ?? null,
        input.team,
        input.name ?? null,
        input.label ?? null,
        input.monthlyBudgetUsd ?? null,
        input.tenant ?? null,
        input.createdBy,
        new Date(this.clock.now()),
        input.expiresAt ?? null,
      ],
    );
    return { key: token.raw, record: this.toRecord(rows[0]) };
  }

  async list(filter: KeyReach & { type?: KeyType | undefined } = {}): Promise<KeyRecord[]> {
    const values: unknown[] = [];
    let where = 'TRUE';
    if (filter.type) {
      values.push(filter.type);
      where += ` AND type = $${values.length}`;
    }
    where += reachClause(filter, values);
    const { rows } = await this.db.query<KeyRow>(
      `SELECT ${columns} FROM gw_keys WHERE ${where} ORDER BY created_at, id`,
      values,
    );
    return rows.map((row) => this.toRecord(row));
  }

  async get(id: string, reach: KeyReach = {}): Promise<KeyRecord | null> {
    const values: unknown[] = [id];
    const { rows } = await this.db.query<KeyRow>(
      `SELECT ${columns} FROM gw_keys WHERE id = $1${reachClause(reach, values)}`,
      values,
    );
    return rows[0] ? this.toRecord(rows[0]) : null;
  }

  /** Whether the user holds a key outside the reach (another tenant's, or a deployment-level one). */
  async holdsKeysBeyond(user: string, reach: KeyReach): Promise<boolean> {
    if (reach.tenant === undefined) return false;
    const { rows } = await this.db.query<{ beyond: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM gw_keys WHERE user_id = $1 AND tenant IS DISTINCT FROM $2) AS beyond',
      [user, reach.tenant],
    );
    return rows[0]?.beyond === true;
  }

  /**
   * The per-request reads of one event-loop turn share a query (see `KeyReadBatch`): one indexed read that also
   * fetches the holder's active flag. On a shared server a fresh read per request, never a cache
   * (docs/adr/0001-per-request-key-lookup.md); on the embedded store, see `readRow`.
   */
  private readonly lookups = new KeyReadBatch<LookupRow>(
    async (hashes) => {
      const { sql, params } = lookupStatement(hashes);
      const { rows } = await this.db.query<LookupRow>(sql, params);
      return new Map(rows.map((row) => [row.key_hash, row]));
    },
    lookupArities[lookupArities.length - 1],
  );

  /** Per-request lookup by raw key (hashed here). Throws when the store is unreachable: callers fail closed. */
  async lookup(rawKey: string): Promise<KeyLookup | null> {
    const row = await this.readRow(hashKey(rawKey));
    if (!row) return null;
    // Status (expiry included) is worked out from the row on every request, cached or not.
    return { record: this.toRecord(row), userActive: row.user_active !== false };
  }

  /**
   * On the embedded store, whose every writer is this process, the row read while nothing changed the store is the
   * row it still holds: it is answered from memory until any statement that may change data runs (a key minted,
   * revoked or rotated, a user deactivated, anything else), which invalidates every entry at once. A read that
   * overlapped a change is not kept. docs/adr/0030-embedded-store-key-reads.md.
   */
  private async readRow(hash: string): Promise<LookupRow | undefined> {
    const changes = this.db.changes;
    if (changes === undefined) return this.lookups.read(hash);
    const kept = this.embeddedRows.get(hash);
    if (kept && kept.changes === changes) return kept.row;
    const row = await this.lookups.read(hash);
    if (this.db.changes === changes) {
      // Bounded against a caller presenting endless unknown keys (their misses are kept too).
      if (this.embeddedRows.size >= 10_000) this.embeddedRows.clear();
      this.embeddedRows.set(hash, { row, changes });
    }
    return row;
  }

  /** Apply changes to a live key in reach; null when there is none (absent, out of reach, or revoked). */
  async update(id: string, changes: KeyChanges, reach: KeyReach = {}): Promise<KeyRecord | null> {
    const assignments: string[] = [];
    const values: unknown[] = [];
    const columnOf: Record<keyof KeyChanges, string> = {
      label: 'label',
      name: 'name',
      team: 'team',
      monthlyBudgetUsd: 'monthly_budget_usd',
      expiresAt: 'expires_at',
    };
    for (const [field, column] of Object.entries(columnOf) as Array<[keyof KeyChanges, string]>) {
      if (changes[field] === undefined) continue;
      values.push(changes[field]);
      assignments.push(`${column} = $${values.length}`);
    }
    values.push(id);
    const where = `id = $${values.length} AND revoked_at IS NULL${reachClause(reach, values)}`;
    // An empty change writes nothing but still answers only for a live key in reach.
    const sql =
      assignments.length === 0
        ? `SELECT ${columns} FROM gw_keys WHERE ${where}`
        : `UPDATE gw_keys SET ${assignments.join(', ')} WHERE ${where} RETURNING ${columns}`;
    const { rows } = await this.db.query<KeyRow>(sql, values);
    return rows[0] ? this.toRecord(rows[0]) : null;
  }

  /** Revoke; true when the key existed in reach. Idempotent: revoking twice keeps the first revocation time. */
  async revoke(id: string, reach: KeyReach = {}): Promise<boolean> {
    const values: unknown[] = [id, new Date(this.clock.now())];
    const { rowCount } = await this.db.query(
      `UPDATE gw_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1${reachClause(reach, values)}`,
      values,
    );
    return rowCount > 0;
  }

  /** Replace the secret of a live key: the old value stops working at once, the new one is returned once. */
  async rotate(id: string, type: KeyType, reach: KeyReach = {}): Promise<{ key: string; record: KeyRecord } | null> {
    const token = mintKeyToken(type);
    const values: unknown[] = [id, token.hash, token.displayPrefix, new Date(this.clock.now())];
    const { rows } = await this.db.query<KeyRow>(
      `UPDATE gw_keys SET key_hash = $2, key_prefix = $3, rotated_at = $4 WHERE id = $1 AND revoked_at IS NULL${reachClause(reach, values)} RETURNING ${columns}`,
      values,
    );
    return rows[0] ? { key: token.raw, record: this.toRecord(rows[0]) } : null;
  }

  async setUserActive(user: string, active: boolean): Promise<void> {
    await this.db.query(
      `INSERT INTO gw_users (user_id, active, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET active = EXCLUDED.active, updated_at = EXCLUDED.updated_at`,
      [user, active, new Date(this.clock.now())],
    );
  }
}
