import type { Clock, Db } from '@gw/platform';
import { isoOrNull, randomToken, sha256Hex } from '@gw/platform';
import {
  provisioningScopes,
  type ProvisioningScope,
  type ProvisioningTokenRecord,
} from './provisioning-token.schema.js';

interface TokenRow {
  id: string;
  label: string | null;
  scopes: string[];
  token_hash: string;
  token_prefix: string;
  previous_hash: string | null;
  previous_valid_until: Date | string | null;
  created_by: string;
  created_at: Date | string;
  rotated_at: Date | string | null;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
}

/** What a presented token turned out to be; the surfaces turn each refusal into their own 401. */
export type ProvisioningTokenMatch =
  | { outcome: 'accepted'; record: ProvisioningTokenRecord }
  | { outcome: 'revoked'; record: ProvisioningTokenRecord }
  | { outcome: 'rotated'; record: ProvisioningTokenRecord; overlapEndedAt: string }
  | { outcome: 'unknown' };

const columns =
  'id, label, scopes, token_hash, token_prefix, previous_hash, previous_valid_until, created_by, created_at, rotated_at, last_used_at, revoked_at';
const prefix = 'prv_';
// Recording every use would write on every SCIM request; a minute's precision is enough to spot a stale token.
const lastUsedPrecisionMs = 60_000;

/** Only values shaped like provisioning tokens are looked up. */
export function looksLikeProvisioningToken(value: string): boolean {
  return /^prv_[A-Za-z0-9_-]{20,200}$/.test(value);
}

const isScope = (value: string): value is ProvisioningScope =>
  (provisioningScopes as readonly string[]).includes(value);

/** Provisioning tokens: hash-only storage, scopes fixed at mint time, read from the store on every use. */
export class ProvisioningTokenStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private toRecord(row: TokenRow): ProvisioningTokenRecord {
    return {
      id: row.id,
      label: row.label,
      scopes: row.scopes.filter(isScope),
      tokenPrefix: row.token_prefix,
      status: row.revoked_at ? 'revoked' : 'active',
      createdAt: isoOrNull(row.created_at) as string,
      createdBy: row.created_by,
      rotatedAt: isoOrNull(row.rotated_at),
      previousValidUntil: isoOrNull(row.previous_valid_until),
      lastUsedAt: isoOrNull(row.last_used_at),
      revokedAt: isoOrNull(row.revoked_at),
    };
  }

  private static mint(): { raw: string; hash: string; shown: string } {
    const raw = `${prefix}${randomToken(32)}`;
    return { raw, hash: sha256Hex(raw), shown: `${raw.slice(0, prefix.length + 4)}…` };
  }

  async create(input: {
    label: string | null;
    scopes: readonly ProvisioningScope[];
    createdBy: string;
  }): Promise<{ token: string; record: ProvisioningTokenRecord }> {
    const minted = ProvisioningTokenStore.mint();
    const { rows } = await this.db.query<TokenRow>(
      `INSERT INTO gw_provisioning_tokens (id, label, scopes, token_hash, token_prefix, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${columns}`,
      [
        `prvtok_${randomToken(12)}`,
        input.label,
        [...new Set(input.scopes)],
        minted.hash,
        minted.shown,
        input.createdBy,
        new Date(this.clock.now()),
      ],
    );
    return { token: minted.raw, record: this.toRecord(rows[0]) };
  }

  async list(): Promise<ProvisioningTokenRecord[]> {
    const { rows } = await this.db.query<TokenRow>(
      `SELECT ${columns} FROM gw_provisioning_tokens ORDER BY created_at, id`,
    );
    return rows.map((row) => this.toRecord(row));
  }

  async get(id: string): Promise<ProvisioningTokenRecord | null> {
    const { rows } = await this.db.query<TokenRow>(`SELECT ${columns} FROM gw_provisioning_tokens WHERE id = $1`, [id]);
    return rows[0] ? this.toRecord(rows[0]) : null;
  }

  /**
   * A fresh token replaces the current one; the current one keeps working until `overlapSeconds` from now, so the
   * automation can be reconfigured without a gap. A token rotated twice loses the oldest at once. Null when the
   * token does not exist or is revoked.
   */
  async rotate(
    id: string,
    overlapSeconds: number,
    rotatedBy: string,
  ): Promise<{ token: string; record: ProvisioningTokenRecord } | null> {
    const minted = ProvisioningTokenStore.mint();
    const now = this.clock.now();
    const { rows } = await this.db.query<TokenRow>(
      `UPDATE gw_provisioning_tokens SET previous_hash = token_hash, previous_valid_until = $2, token_hash = $3, token_prefix = $4, rotated_at = $5, rotated_by = $6
       WHERE id = $1 AND revoked_at IS NULL RETURNING ${columns}`,
      [id, new Date(now + overlapSeconds * 1000), minted.hash, minted.shown, new Date(now), rotatedBy],
    );
    return rows[0] ? { token: minted.raw, record: this.toRecord(rows[0]) } : null;
  }

  /** Revoke; true when the token existed. Both the current and a still-overlapping previous token stop at once. */
  async revoke(id: string, revokedBy: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'UPDATE gw_provisioning_tokens SET revoked_at = COALESCE(revoked_at, $2), revoked_by = COALESCE(revoked_by, $3) WHERE id = $1',
      [id, new Date(this.clock.now()), revokedBy],
    );
    return rowCount > 0;
  }

  /** Per-request lookup by the raw token. Throws when the store is unreachable: the caller fails closed. */
  async match(rawToken: string): Promise<ProvisioningTokenMatch> {
    const hash = sha256Hex(rawToken);
    const { rows } = await this.db.query<TokenRow>(
      `SELECT ${columns} FROM gw_provisioning_tokens WHERE token_hash = $1 OR previous_hash = $1`,
      [hash],
    );
    const row = rows[0];
    if (!row) return { outcome: 'unknown' };
    const record = this.toRecord(row);
    if (row.revoked_at) return { outcome: 'revoked', record };
    const now = this.clock.now();
    if (
      row.token_hash !== hash &&
      (row.previous_valid_until === null || new Date(row.previous_valid_until).getTime() <= now)
    ) {
      return {
        outcome: 'rotated',
        record,
        overlapEndedAt: isoOrNull(row.previous_valid_until) ?? record.rotatedAt ?? record.createdAt,
      };
    }
    const lastUsed = row.last_used_at ? new Date(row.last_used_at).getTime() : null;
    if (lastUsed === null || now - lastUsed >= lastUsedPrecisionMs) {
      await this.db.query('UPDATE gw_provisioning_tokens SET last_used_at = $2 WHERE id = $1', [row.id, new Date(now)]);
    }
    return { outcome: 'accepted', record };
  }
}

/** The clear reason a refused token gets, without echoing it. */
export function refusalMessage(match: Exclude<ProvisioningTokenMatch, { outcome: 'accepted' }>): string {
  if (match.outcome === 'revoked') return `The provisioning token ${match.record.id} was revoked; mint a new one.`;
  if (match.outcome === 'rotated')
    return `The provisioning token ${match.record.id} was rotated and the old token's overlap window ended at ${match.overlapEndedAt}; use the token returned by the rotation.`;
  return 'The provisioning token is not valid.';
}
