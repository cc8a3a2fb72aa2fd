import { randomToken, sha256Hex, type Clock, type Db, isoTimestamp } from '@gw/platform';

const kind = 'enroll_secret';
// ev_credentials keeps one credential per organization, kind and source; the agent lane has one source.
const source = 'agent';

/**
 * The organization's agent enroll secret: SHA-256 only, the plaintext returned once
 * when minted. Rotating replaces it at once; hosts already enrolled keep their node keys (the contract "enrolled
 * hosts unaffected").
 */
export class EnrollSecretStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async rotate(orgId: string): Promise<{ enrollSecret: string; createdAt: string }> {
    const enrollSecret = randomToken(32);
    const at = new Date(this.clock.now());
    await this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM ev_credentials WHERE org_id = $1 AND kind = $2 AND source = $3', [
        orgId,
        kind,
        source,
      ]);
      await tx.query(
        'INSERT INTO ev_credentials (hash, org_id, kind, source, created_at) VALUES ($1, $2, $3, $4, $5)',
        [sha256Hex(enrollSecret), orgId, kind, source, at],
      );
    });
    return { enrollSecret, createdAt: at.toISOString() };
  }

  async status(orgId: string): Promise<{ hasSecret: boolean; createdAt: string | null }> {
    const { rows } = await this.db.query<{ created_at: Date | string }>(
      'SELECT created_at FROM ev_credentials WHERE org_id = $1 AND kind = $2',
      [orgId, kind],
    );
    return rows[0]
      ? { hasSecret: true, createdAt: isoTimestamp(rows[0].created_at) }
      : { hasSecret: false, createdAt: null };
  }

  async revoke(orgId: string): Promise<boolean> {
    return (
      (await this.db.query('DELETE FROM ev_credentials WHERE org_id = $1 AND kind = $2', [orgId, kind])).rowCount > 0
    );
  }

  /** The organization a presented enroll secret belongs to; null when it is no live secret. */
  async resolve(secret: string): Promise<string | null> {
    const { rows } = await this.db.query<{ org_id: string }>(
      'SELECT org_id FROM ev_credentials WHERE hash = $1 AND kind = $2',
      [sha256Hex(secret), kind],
    );
    return rows[0]?.org_id ?? null;
  }
}
