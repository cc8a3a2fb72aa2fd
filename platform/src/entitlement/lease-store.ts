import type { SignedLease } from '@gw/contracts';
import type { Queryable } from '../db/db.js';
import { isoOrNull } from '../time/iso-or-null.js';

/**
 * The lease as the gateway stores it in the shared store (`gw_entitlement_lease`, gateway migration 037) and the
 * optimizer reads it. One row per deployment; the row is
 * the envelope exactly as billing signed it, so every reader verifies it itself and none trusts the writer.
 */
export interface StoredLease {
  lease: unknown;
  receivedAt: string;
}

export async function readStoredLease(db: Queryable, deploymentId: string): Promise<StoredLease | null> {
  const { rows } = await db.query<{ lease: unknown; received_at: Date | string }>(
    'SELECT lease, received_at FROM gw_entitlement_lease WHERE deployment_id = $1',
    [deploymentId],
  );
  const row = rows[0];
  return row ? { lease: row.lease, receivedAt: isoOrNull(row.received_at) as string } : null;
}

/** Keep the newest lease: one replica's late answer never replaces a lease issued after it. */
export async function writeStoredLease(
  db: Queryable,
  deploymentId: string,
  lease: SignedLease,
  issuedAt: string,
  receivedAt: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO gw_entitlement_lease (deployment_id, lease, issued_at, received_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (deployment_id) DO UPDATE SET lease = EXCLUDED.lease, issued_at = EXCLUDED.issued_at, received_at = EXCLUDED.received_at
     WHERE gw_entitlement_lease.issued_at <= EXCLUDED.issued_at`,
    [deploymentId, JSON.stringify(lease), issuedAt, receivedAt],
  );
}
