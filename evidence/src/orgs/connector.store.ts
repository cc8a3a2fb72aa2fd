import { randomToken, sha256Hex, type Clock, type Db, isoTimestamp } from '@gw/platform';

/** Evidence sources a connector can report as (customer-managed device-management platforms). */
export const evidenceSources = ['jamf', 'intune', 'kandji', 'jumpcloud', 'workspace_one', 'fleet', 'custom'] as const;
export type EvidenceSource = (typeof evidenceSources)[number];

const connectorKind = 'evidence_connector';

export interface ConnectorCaller {
  orgId: string;
  source: EvidenceSource;
}

/**
 * Evidence-connector bearers (`aer_`): one per organization and source, shown once when minted,
 * stored as SHA-256. Rotating replaces the previous token at once; revoking removes it.
 */
export class ConnectorStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async rotate(orgId: string, source: EvidenceSource): Promise<{ token: string; createdAt: string }> {
    const token = `aer_${randomToken(32)}`;
    const at = new Date(this.clock.now());
    await this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM ev_credentials WHERE org_id = $1 AND kind = $2 AND source = $3', [
        orgId,
        connectorKind,
        source,
      ]);
      await tx.query(
        'INSERT INTO ev_credentials (hash, org_id, kind, source, created_at) VALUES ($1, $2, $3, $4, $5)',
        [sha256Hex(token), orgId, connectorKind, source, at],
      );
    });
    return { token, createdAt: at.toISOString() };
  }

  async revoke(orgId: string, source: EvidenceSource): Promise<boolean> {
    return (
      (
        await this.db.query('DELETE FROM ev_credentials WHERE org_id = $1 AND kind = $2 AND source = $3', [
          orgId,
          connectorKind,
          source,
        ])
      ).rowCount > 0
    );
  }

  async list(orgId: string): Promise<Array<{ source: EvidenceSource; createdAt: string }>> {
    const { rows } = await this.db.query<{ source: EvidenceSource; created_at: Date | string }>(
      'SELECT source, created_at FROM ev_credentials WHERE org_id = $1 AND kind = $2 ORDER BY source',
      [orgId, connectorKind],
    );
    return rows.map((row) => ({ source: row.source, createdAt: isoTimestamp(row.created_at) }));
  }

  /** The organization and source a presented bearer stands for; null when it is not a live connector token. */
  async resolve(token: string): Promise<ConnectorCaller | null> {
    if (!token.startsWith('aer_')) return null;
    const { rows } = await this.db.query<{ org_id: string; source: EvidenceSource }>(
      'SELECT org_id, source FROM ev_credentials WHERE hash = $1 AND kind = $2',
      [sha256Hex(token), connectorKind],
    );
    return rows[0] ? { orgId: rows[0].org_id, source: rows[0].source } : null;
  }
}
