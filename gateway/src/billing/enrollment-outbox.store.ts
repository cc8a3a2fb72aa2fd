import { sha256Hex, type Queryable, isoTimestamp } from '@gw/platform';
import type { EnrollmentIdentity } from '@gw/contracts';

/** How long a replica holds the rows it is sending; one that dies mid-call releases them by expiry. */
const claimMs = 60_000;
/** Retry after a failure: 30 s, doubling per attempt, at most an hour. */
const firstRetrySeconds = 30;
const maxRetrySeconds = 3600;

interface SnapshotRow {
  identity_hash: string;
  address: string | null;
  revision: string | number;
  changed_at: Date | string;
  external_id: string | null;
  user_type: string | null;
  active: boolean | null;
  admin: boolean | null;
  deleted: boolean | null;
}

/** A claimed row: the key it is kept under and what billing receives for it. */
export interface ClaimedIdentity {
  identityHash: string;
  identity: EnrollmentIdentity;
}

/** A user type an identity provider uses for machine accounts ("Service", "service account", "bot", …). */
const serviceUserType = /^(service|service[ _-]?account|service[ _-]?principal|bot|machine|application)$/i;

/** The content-free form billing receives: hashes, an allowlisted source and type, status, role, revision. */
export function identityOf(row: SnapshotRow): EnrollmentIdentity {
  const present = row.active !== null && row.deleted === false;
  return {
    source: 'scim',
    type: row.user_type !== null && serviceUserType.test(row.user_type.trim()) ? 'service' : 'human',
    identityHash: row.identity_hash,
    externalIdHash: row.external_id === null ? null : sha256Hex(row.external_id),
    status: !present ? 'removed' : row.active ? 'active' : 'inactive',
    role: present && row.admin ? 'admin' : 'member',
    revision: Number(row.revision),
    changedAt: isoTimestamp(row.changed_at),
  };
}

/**
 * The outbox SCIM writes fill (`identity/scim/enrollment-outbox.ts`), read by the identity reflector. Rows are claimed
 * with `SKIP LOCKED` and a lease, so replicas share the work without sending the same row twice at once; a row
 * leaves the queue only when billing accepted the revision it was sent with.
 */
export class EnrollmentOutboxStore {
  constructor(private readonly db: Queryable) {}

  /** Claim up to `limit` due rows and read each address's current state, in one consistent snapshot. */
  async claim(now: number, limit: number): Promise<ClaimedIdentity[]> {
    const claimed = await this.db.query<{ identity_hash: string }>(
      `UPDATE gw_enrollment_identity_outbox SET claimed_until = $2
        WHERE identity_hash IN (
          SELECT identity_hash FROM gw_enrollment_identity_outbox
           WHERE delivered_revision < revision AND (attempts = 0 OR next_attempt_at <= $1)
             AND (claimed_until IS NULL OR claimed_until <= $1)
           ORDER BY changed_at, identity_hash LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING identity_hash`,
      [new Date(now), new Date(now + claimMs), limit],
    );
    if (claimed.rows.length === 0) return [];
    const { rows } = await this.db.query<SnapshotRow>(
      `SELECT o.identity_hash, o.address, o.revision, o.changed_at, u.external_id, u.user_type, u.active, u.admin, u.deleted
         FROM gw_enrollment_identity_outbox o
         LEFT JOIN gw_scim_users u ON lower(u.user_name) = o.address
        WHERE o.identity_hash = ANY($1::text[])
        ORDER BY o.changed_at, o.identity_hash`,
      [claimed.rows.map((row) => row.identity_hash)],
    );
    return rows.map((row) => ({ identityHash: row.identity_hash, identity: identityOf(row) }));
  }

  /** Billing took these revisions: each row is done unless a later change raised its revision meanwhile. */
  async delivered(sent: readonly ClaimedIdentity[]): Promise<void> {
    await this.db.query(
      `UPDATE gw_enrollment_identity_outbox o
          SET delivered_revision = GREATEST(o.delivered_revision, sent.revision), claimed_until = NULL, last_error = NULL,
              attempts = 0
         FROM unnest($1::text[], $2::bigint[]) AS sent(identity_hash, revision)
        WHERE o.identity_hash = sent.identity_hash`,
      [sent.map((row) => row.identityHash), sent.map((row) => row.identity.revision)],
    );
  }

  /** Billing did not take them: release the claim and try again later, longer after each failure. */
  async failed(identityHashes: readonly string[], now: number, code: string): Promise<void> {
    await this.db.query(
      `UPDATE gw_enrollment_identity_outbox
          SET attempts = attempts + 1, claimed_until = NULL, last_error = $3,
              next_attempt_at = $2::timestamptz + make_interval(secs => LEAST($4 * power(2, attempts), $5))
        WHERE identity_hash = ANY($1::text[])`,
      [identityHashes, new Date(now), code, firstRetrySeconds, maxRetrySeconds],
    );
  }

  /** What is waiting to reach billing, for `/admin/health`: changes not yet taken, and those a failure holds back. */
  async backlog(): Promise<{ waiting: number; failing: number; oldestWaitingSince: string | null }> {
    const { rows } = await this.db.query<{
      waiting: string | number;
      failing: string | number;
      oldest: Date | string | null;
    }>(
      `SELECT count(*) AS waiting, count(*) FILTER (WHERE attempts > 0) AS failing, min(changed_at) AS oldest
         FROM gw_enrollment_identity_outbox WHERE delivered_revision < revision`,
    );
    const row = rows[0];
    return {
      waiting: Number(row?.waiting ?? 0),
      failing: Number(row?.failing ?? 0),
      oldestWaitingSince: row?.oldest ? isoTimestamp(row.oldest) : null,
    };
  }
}
