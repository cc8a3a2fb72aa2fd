import { isoTimestamp } from '@gw/platform';
import type { Db } from '@gw/platform';
import type { InstallerKind, InstallerOs } from './installer-kinds.js';

/** The current package of one OS, as listed and as a download describes it. */
export interface InstallerRecord {
  os: InstallerOs;
  kind: InstallerKind;
  contentType: string;
  sizeBytes: number;
  /** Lowercase hex SHA-256 of the whole package. */
  sha256: string;
  uploadedAt: string;
  uploadedBy: string;
  /** Where its chunks live, and how long each is (the last may be shorter). */
  uploadId: string;
  chunkBytes: number;
}

interface InstallerRow {
  os: InstallerOs;
  kind: InstallerKind;
  content_type: string;
  size_bytes: string | number | bigint;
  sha256: string;
  uploaded_at: Date | string;
  uploaded_by: string;
  upload_id: string;
  chunk_bytes: number;
}

const recordOf = (row: InstallerRow): InstallerRecord => ({
  os: row.os,
  kind: row.kind,
  contentType: row.content_type,
  sizeBytes: Number(row.size_bytes),
  sha256: row.sha256,
  uploadedAt: isoTimestamp(row.uploaded_at),
  uploadedBy: row.uploaded_by,
  uploadId: row.upload_id,
  chunkBytes: row.chunk_bytes,
});

// pg hands bytea over as a Buffer, PGlite as a Uint8Array: the same bytes either way, without a copy.
const asBuffer = (bytes: Uint8Array) =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const columns = 'os, kind, content_type, size_bytes, sha256, uploaded_at, uploaded_by, upload_id, chunk_bytes';

/**
 * Installer packages in the relational store (migration 053, `docs/adr/0028-installers-in-the-relational-store.md`):
 * an upload stages its chunks under its own id, and `promote` makes it the OS's package in one transaction that also
 * drops the chunks of the package it replaces. Until then the previous package is untouched.
 */
export class InstallerStore {
  constructor(private readonly db: Db) {}

  async list(): Promise<InstallerRecord[]> {
    const { rows } = await this.db.query<InstallerRow>(`SELECT ${columns} FROM gw_fleet_installers ORDER BY os`);
    return rows.map(recordOf);
  }

  async get(os: InstallerOs): Promise<InstallerRecord | null> {
    const { rows } = await this.db.query<InstallerRow>(`SELECT ${columns} FROM gw_fleet_installers WHERE os = $1`, [
      os,
    ]);
    return rows[0] ? recordOf(rows[0]) : null;
  }

  async stageChunk(uploadId: string, seq: number, bytes: Buffer, at: Date): Promise<void> {
    await this.db.query(
      'INSERT INTO gw_fleet_installer_chunks (upload_id, seq, bytes, staged_at) VALUES ($1, $2, $3, $4)',
      [uploadId, seq, bytes, at],
    );
  }

  async readChunk(uploadId: string, seq: number): Promise<Buffer | null> {
    const { rows } = await this.db.query<{ bytes: Uint8Array }>(
      'SELECT bytes FROM gw_fleet_installer_chunks WHERE upload_id = $1 AND seq = $2',
      [uploadId, seq],
    );
    return rows[0] ? asBuffer(rows[0].bytes) : null;
  }

  /** Drops what an upload staged (it failed a check, went over the limit, or its client went away). */
  async discard(uploadId: string): Promise<void> {
    await this.db.query('DELETE FROM gw_fleet_installer_chunks WHERE upload_id = $1', [uploadId]);
  }

  /** Drops chunks staged before `before` that no OS points at: uploads whose process died before finishing. */
  async sweepAbandoned(before: Date): Promise<void> {
    await this.db.query(
      `DELETE FROM gw_fleet_installer_chunks
        WHERE staged_at < $1 AND upload_id NOT IN (SELECT upload_id FROM gw_fleet_installers)`,
      [before],
    );
  }

  /** Makes a fully staged upload the OS's package and drops the one it replaces, atomically. */
  async promote(record: InstallerRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ upload_id: string }>(
        'SELECT upload_id FROM gw_fleet_installers WHERE os = $1 FOR UPDATE',
        [record.os],
      );
      await tx.query(
        `INSERT INTO gw_fleet_installers (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (os) DO UPDATE SET kind = EXCLUDED.kind, content_type = EXCLUDED.content_type,
           size_bytes = EXCLUDED.size_bytes, sha256 = EXCLUDED.sha256, uploaded_at = EXCLUDED.uploaded_at,
           uploaded_by = EXCLUDED.uploaded_by, upload_id = EXCLUDED.upload_id, chunk_bytes = EXCLUDED.chunk_bytes`,
        [
          record.os,
          record.kind,
          record.contentType,
          record.sizeBytes,
          record.sha256,
          record.uploadedAt,
          record.uploadedBy,
          record.uploadId,
          record.chunkBytes,
        ],
      );
      const replaced = rows[0]?.upload_id;
      if (replaced && replaced !== record.uploadId)
        await tx.query('DELETE FROM gw_fleet_installer_chunks WHERE upload_id = $1', [replaced]);
    });
  }
}
