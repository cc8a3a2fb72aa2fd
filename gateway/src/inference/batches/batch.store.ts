import type { Db } from '@gw/platform';
import type { AppError } from '@gw/platform';
import { gatewayError } from '../../errors.js';

/** Who created a batch through the gateway: its output is billed to them, and only their key may reach it. */
export interface BatchOwner {
  batchId: string;
  /** The slug of the provider that ran the batch: its output is fetched there. */
  provider: string;
  keyId: string;
  keyType: 'client' | 'service' | null;
  user: string | null;
  team: string | null;
  /** The batch's endpoint as the provider named it (`/v1/chat/completions`), the endpoint of its lines' rows. */
  endpoint: string | null;
}

interface OwnerRow {
  batch_id: string;
  provider: string;
  key_id: string;
  key_type: string | null;
  user_id: string | null;
  team: string | null;
  endpoint: string | null;
}

/**
 * Batch ownership and the output lines already billed, in the relational store so every replica sees the same
 * (`migrations/043_batches.sql`).
 */
export class BatchStore {
  constructor(private readonly db: Db) {}

  async remember(owner: BatchOwner): Promise<void> {
    await this.db.query(
      `INSERT INTO gw_batches (batch_id, provider, key_id, key_type, user_id, team, endpoint) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (batch_id) DO NOTHING`,
      [owner.batchId, owner.provider, owner.keyId, owner.keyType, owner.user, owner.team, owner.endpoint],
    );
  }

  /** The batch's owner, or null when the gateway did not create it. */
  async owner(batchId: string): Promise<BatchOwner | null> {
    const { rows } = await this.db.query<OwnerRow>(
      'SELECT batch_id, provider, key_id, key_type, user_id, team, endpoint FROM gw_batches WHERE batch_id = $1',
      [batchId],
    );
    const row = rows[0];
    if (!row) return null;
    const keyType = row.key_type === 'client' || row.key_type === 'service' ? row.key_type : null;
    return {
      batchId: row.batch_id,
      provider: row.provider,
      keyId: row.key_id,
      keyType,
      user: row.user_id,
      team: row.team,
      endpoint: row.endpoint,
    };
  }

  /** Records files as `keyId`'s (an upload, a batch's output and error files); a file already recorded keeps its owner. */
  async rememberFiles(keyId: string, fileIds: readonly string[]): Promise<void> {
    if (fileIds.length === 0) return;
    await this.db.query(
      'INSERT INTO gw_batch_files (file_id, key_id) SELECT unnest($1::text[]), $2 ON CONFLICT (file_id) DO NOTHING',
      [fileIds, keyId],
    );
  }

  /** Of `fileIds`, those recorded as another key's than `keyId`. */
  async othersFiles(keyId: string, fileIds: readonly string[]): Promise<Set<string>> {
    if (fileIds.length === 0) return new Set();
    const { rows } = await this.db.query<{ file_id: string }>(
      'SELECT file_id FROM gw_batch_files WHERE file_id = ANY($1::text[]) AND key_id <> $2',
      [fileIds, keyId],
    );
    return new Set(rows.map((row) => row.file_id));
  }

  /** The ids among `batchIds` that `keyId` created. */
  async ownedBy(keyId: string, batchIds: readonly string[]): Promise<Set<string>> {
    if (batchIds.length === 0) return new Set();
    const { rows } = await this.db.query<{ batch_id: string }>(
      'SELECT batch_id FROM gw_batches WHERE key_id = $1 AND batch_id = ANY($2::text[])',
      [keyId, batchIds],
    );
    return new Set(rows.map((row) => row.batch_id));
  }

  /**
   * Claims output lines for billing: returns the keys of the lines no earlier download (on any replica) claimed.
   * The primary key on (batch, line) makes the claim atomic; a line claimed once is never claimed again.
   */
  async claimLines(batchId: string, lines: ReadonlyArray<{ lineKey: string; spendId: string }>): Promise<Set<string>> {
    if (lines.length === 0) return new Set();
    const { rows } = await this.db.query<{ line_key: string }>(
      `INSERT INTO gw_batch_output_lines (batch_id, line_key, spend_id)
       SELECT $1, line_key, spend_id FROM unnest($2::text[], $3::text[]) AS claimed(line_key, spend_id)
       ON CONFLICT (batch_id, line_key) DO NOTHING RETURNING line_key`,
      [batchId, lines.map((line) => line.lineKey), lines.map((line) => line.spendId)],
    );
    return new Set(rows.map((row) => row.line_key));
  }
}

/** An unknown batch and another key's batch are the same answer: the caller learns nothing of batches not theirs. */
export function batchNotFound(batchId: string): AppError {
  return gatewayError('not_found', `No batch found with id '${batchId}'.`);
}

/** The batch's owner when `keyId` created it; otherwise the 404 of an unknown batch. */
export async function ownedBatch(store: BatchStore, batchId: string, keyId: string | undefined): Promise<BatchOwner> {
  const owner = await store.owner(batchId);
  if (!owner || keyId === undefined || owner.keyId !== keyId) throw batchNotFound(batchId);
  return owner;
}
