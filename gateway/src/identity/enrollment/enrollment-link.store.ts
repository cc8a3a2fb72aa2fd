import { randomToken, sha256Hex, type Clock, type Db, type Queryable, isoTimestamp } from '@gw/platform';
import { enrollmentTokenPrefix, type EnrollmentLink } from './enrollment-link.schema.js';
import { isUserBlocked } from '../users/user-blocked.js';

interface LinkRow {
  id: string;
  team: string;
  user_id: string | null;
  label: string | null;
  tenant: string | null;
  max_uses: number;
  uses: number;
  expires_at: Date | string;
  revoked_at: Date | string | null;
  created_by: string;
  created_at: Date | string;
}

const columns = 'id, team, user_id, label, tenant, max_uses, uses, expires_at, revoked_at, created_by, created_at';

/** Why a token redeems nothing; each is the caller's to fix, none reveals another link. */
export type RedeemFailure =
  | 'unknown'
  | 'expired'
  | 'exhausted'
  | 'revoked'
  | 'user_mismatch'
  | 'user_required'
  | 'user_blocked'
  | 'identity_taken';

export interface RedeemedLink {
  link: EnrollmentLink;
  /** The developer the minted key is for. */
  user: string;
}

/** An address someone already holds: a key was minted for it, or the identity provider provisioned it. */
async function isClaimed(db: Queryable, user: string): Promise<boolean> {
  const { rows } = await db.query<{ claimed: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM gw_keys WHERE lower(user_id) = lower($1))
         OR EXISTS (SELECT 1 FROM gw_scim_users WHERE lower(user_name) = lower($1)) AS claimed`,
    [user],
  );
  return rows[0]?.claimed === true;
}

/** Enrollment links: tokens kept as hashes, uses counted under a row lock. */
export class EnrollmentLinkStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private toLink(row: LinkRow): EnrollmentLink {
    const now = this.clock.now();
    const expiresAt = new Date(row.expires_at);
    const status =
      row.revoked_at !== null
        ? 'revoked'
        : expiresAt.getTime() <= now
          ? 'expired'
          : Number(row.uses) >= Number(row.max_uses)
            ? 'exhausted'
            : 'active';
    return {
      id: row.id,
      team: row.team,
      user: row.user_id,
      label: row.label,
      tenant: row.tenant,
      maxUses: Number(row.max_uses),
      uses: Number(row.uses),
      status,
      expiresAt: expiresAt.toISOString(),
      revokedAt: row.revoked_at === null ? null : isoTimestamp(row.revoked_at),
      createdBy: row.created_by,
      createdAt: isoTimestamp(row.created_at),
    };
  }

  async create(input: {
    team: string;
    user?: string | undefined;
    label?: string | undefined;
    expiresInHours: number;
    maxUses: number;
    tenant: string | null;
    createdBy: string;
  }): Promise<{ link: EnrollmentLink; token: string }> {
    const token = `${enrollmentTokenPrefix}${randomToken(32)}`;
    const now = this.clock.now();
    const { rows } = await this.db.query<LinkRow>(
      `INSERT INTO gw_enrollment_links (id, token_hash, team, user_id, label, tenant, max_uses, expires_at, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${columns}`,
      [
        `enl_${randomToken(12)}`,
        sha256Hex(token),
        input.team,
        input.user ?? null,
        input.label ?? null,
        input.tenant,
        input.maxUses,
        new Date(now + input.expiresInHours * 3_600_000),
        input.createdBy,
        new Date(now),
      ],
    );
    return { link: this.toLink(rows[0]), token };
  }

  /** Newest first; `tenant` undefined lists every tenant's. */
  async list(filter: { tenant?: string | undefined } = {}): Promise<EnrollmentLink[]> {
    const values: unknown[] = [];
    const where = filter.tenant === undefined ? 'TRUE' : `tenant = $${values.push(filter.tenant)}`;
    const { rows } = await this.db.query<LinkRow>(
      `SELECT ${columns} FROM gw_enrollment_links WHERE ${where} ORDER BY created_at DESC, id`,
      values,
    );
    return rows.map((row) => this.toLink(row));
  }

  async get(id: string, filter: { tenant?: string | undefined } = {}): Promise<EnrollmentLink | null> {
    const values: unknown[] = [id];
    const scope = filter.tenant === undefined ? '' : ` AND tenant = $${values.push(filter.tenant)}`;
    const { rows } = await this.db.query<LinkRow>(
      `SELECT ${columns} FROM gw_enrollment_links WHERE id = $1${scope}`,
      values,
    );
    return rows[0] ? this.toLink(rows[0]) : null;
  }

  /** Revoke (the record stays, for the audit trail), or with `hard` delete it; false when there was no such link. */
  async remove(id: string, options: { hard: boolean; tenant?: string | undefined }): Promise<boolean> {
    const values: unknown[] = [id];
    const scope = options.tenant === undefined ? '' : ` AND tenant = $${values.push(options.tenant)}`;
    if (options.hard)
      return (await this.db.query(`DELETE FROM gw_enrollment_links WHERE id = $1${scope}`, values)).rowCount > 0;
    values.push(new Date(this.clock.now()));
    return (
      (
        await this.db.query(
          `UPDATE gw_enrollment_links SET revoked_at = COALESCE(revoked_at, $${values.length}) WHERE id = $1${scope}`,
          values,
        )
      ).rowCount > 0
    );
  }

  /**
   * Spend one use of the link the token opens and `mint` the key, in one transaction: a mint that fails spends no use.
   * The redeemer is the developer the link names (the caller may repeat it, in any case) or, for a link that names
   * nobody, the address the caller gives, lower-cased. A self-declared address may not claim one someone already
   * holds (a key or a SCIM identity): that needs a link made out to it. A revoked or deactivated developer gets
   * nothing. The use is counted under the row lock, so redemptions racing for the last use cannot both succeed.
   */
  async redeem<Minted>(
    token: string,
    user: string | undefined,
    mint: (tx: Queryable, redeemed: RedeemedLink) => Promise<Minted>,
  ): Promise<Minted | RedeemFailure> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<LinkRow>(
        `SELECT ${columns} FROM gw_enrollment_links WHERE token_hash = $1 FOR UPDATE`,
        [sha256Hex(token)],
      );
      const row = rows[0];
      if (!row) return 'unknown';
      const link = this.toLink(row);
      if (link.status !== 'active') return link.status;
      if (link.user !== null && user !== undefined && link.user.toLowerCase() !== user.toLowerCase())
        return 'user_mismatch';
      const redeemer = link.user ?? user?.toLowerCase();
      if (redeemer === undefined) return 'user_required';
      if (await isUserBlocked(tx, redeemer)) return 'user_blocked';
      if (link.user === null && (await isClaimed(tx, redeemer))) return 'identity_taken';
      const updated = await tx.query<LinkRow>(
        `UPDATE gw_enrollment_links SET uses = uses + 1 WHERE id = $1 RETURNING ${columns}`,
        [row.id],
      );
      return mint(tx, { link: this.toLink(updated.rows[0]), user: redeemer });
    });
  }
}
