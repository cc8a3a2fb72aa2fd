import { isoTimestamp } from '@gw/platform';
import type { Db, Queryable } from '@gw/platform';
import { gatewayError } from '../errors.js';

/** One revisioned JSON document of `gw_policies` (migration 030): the desktop policy, the team policies. */
export interface PolicyDocumentRow<Document> {
  document: Document;
  revision: number;
  updatedAt: string;
  updatedBy: string;
}

interface Row {
  document: unknown;
  revision: number;
  updated_at: Date | string;
  updated_by: string;
}

export async function readPolicyDocument(db: Queryable, name: string): Promise<PolicyDocumentRow<unknown> | null> {
  const { rows } = await db.query<Row>(
    'SELECT document, revision, updated_at, updated_by FROM gw_policies WHERE name = $1',
    [name],
  );
  const row = rows[0];
  return row
    ? {
        document: row.document,
        revision: Number(row.revision),
        updatedAt: isoTimestamp(row.updated_at),
        updatedBy: row.updated_by,
      }
    : null;
}

/**
 * Replace a document under a row lock, bumping its revision; 409 when `expectedRevision` is given and stale (optimistic
 * concurrency for administrators editing from two consoles). `label` names the document in the error.
 */
export async function replacePolicyDocument(
  db: Db,
  input: {
    name: string;
    label: string;
    document: unknown;
    expectedRevision: number | undefined;
    actor: string;
    at: Date;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ revision: number }>(
      'SELECT revision FROM gw_policies WHERE name = $1 FOR UPDATE',
      [input.name],
    );
    const revision = rows[0] ? Number(rows[0].revision) : 0;
    if (input.expectedRevision !== undefined && input.expectedRevision !== revision) {
      throw gatewayError(
        'conflict',
        `the ${input.label} is at revision ${revision}, not ${input.expectedRevision}; read it again and retry`,
      );
    }
    await tx.query(
      `INSERT INTO gw_policies (name, document, revision, updated_by, updated_at) VALUES ($1, $2::jsonb, 1, $3, $4)
       ON CONFLICT (name) DO UPDATE SET document = EXCLUDED.document, revision = gw_policies.revision + 1,
         updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
      [input.name, JSON.stringify(input.document), input.actor, input.at],
    );
  });
}
