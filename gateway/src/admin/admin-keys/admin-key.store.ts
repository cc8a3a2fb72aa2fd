import type { Clock, Db } from '@gw/platform';
import { isoOrNull, randomToken, sha256Hex } from '@gw/platform';
import type { AdminKeyRecord } from './admin-key.schema.js';

interface AdminKeyRow {
  id: string;
  key_prefix: string;
  label: string | null;
  caps: string[] | null;
  scopes: string[] | null;
  tenant: string | null;
  created_by: string;
  created_at: Date | string;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
}

export interface NewAdminKey {
  label: string | null;
  caps: readonly string[] | null;
  scopes: readonly string[] | null;
  tenant: string | null;
  expiresAt: Date | null;
  createdBy: string;
}

const columns = 'id, key_prefix, label, caps, scopes, tenant, created_by, created_at, expires_at, revoked_at';
const prefix = 'aak_';

/** Only values shaped like our admin keys are looked up; anything else is not an admin key. */
export function looksLikeAdminKey(value: string): boolean {
  return /^aak_[A-Za-z0-9_-]{20,200}$/.test(value);
}

/** Admin API keys: hash-only storage, a grant fixed at mint time, read on every request it is used. */
export class AdminKeyStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private toRecord(row: AdminKeyRow): AdminKeyRecord {
    const expiresAt = isoOrNull(row.expires_at);
    const status = row.revoked_at
      ? 'revoked'
      : expiresAt && Date.parse(expiresAt) <= this.clock.now()
        ? 'expired'
        : 'active';
    return {
      id: row.id,
      label: row.label,
      keyPrefix: row.key_prefix,
      caps: row.caps,
      scopes: row.scopes,
      tenant: row.tenant,
      status,
      createdAt: isoOrNull(row.created_at) as string,
      createdBy: row.created_by,
      expiresAt,
      revokedAt: isoOrNull(row.revoked_at),
    };
  }

  async create(input: NewAdminKey): Promise<{ key: string; record: AdminKeyRecord }> {
    const raw = `${prefix}${randomToken(32)}`;
    const { rows } = await this.db.query<AdminKeyRow>(
      `INSERT INTO gw_admin_keys (id, key_hash, key_prefix, label, caps, scopes, tenant, created_by, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${columns}`,
      [
        `admkey_${randomToken(12)}`,
        sha256Hex(raw),
        `${raw.slice(0, prefix.length + 4)}…`,
        input.label,
        input.caps,
        input.scopes,
        input.tenant,
        input.createdBy,
        new Date(this.clock.now()),
        input.expiresAt,
      ],
    );
    return { key: raw, record: this.toRecord(rows[0]) };
  }

  async list(): Promise<AdminKeyRecord[]> {
    const { rows } = await this.db.query<AdminKeyRow>(`SELECT ${columns} FROM gw_admin_keys ORDER BY created_at, id`);
    return rows.map((row) => this.toRecord(row));
  }

  async get(id: string): Promise<AdminKeyRecord | null> {
    const { rows } = await this.db.query<AdminKeyRow>(`SELECT ${columns} FROM gw_admin_keys WHERE id = $1`, [id]);
    return rows[0] ? this.toRecord(rows[0]) : null;
  }

  /** Per-request lookup by raw key. Throws when the store is unreachable: the caller fails closed. */
  async lookup(rawKey: string): Promise<AdminKeyRecord | null> {
    const { rows } = await this.db.query<AdminKeyRow>(`SELECT ${columns} FROM gw_admin_keys WHERE key_hash = $1`, [
      sha256Hex(rawKey),
    ]);
    return rows[0] ? this.toRecord(rows[0]) : null;
  }

  /** Revoke; true when the key existed. Idempotent: the first revocation time is kept. */
  async revoke(id: string, revokedBy: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'UPDATE gw_admin_keys SET revoked_at = COALESCE(revoked_at, $2), revoked_by = COALESCE(revoked_by, $3) WHERE id = $1',
      [id, new Date(this.clock.now()), revokedBy],
    );
    return rowCount > 0;
  }
}
