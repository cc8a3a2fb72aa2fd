import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Clock } from '@gw/platform';
import { gatewayError } from '../../errors.js';
import {
  acceptsContentType,
  describeKind,
  headBytes,
  kindOfOs,
  magicProblem,
  servedContentType,
  type InstallerOs,
} from './installer-kinds.js';
import type { InstallerRecord, InstallerStore } from './installer.store.js';

/** The size of a stored chunk: what one upload or one download holds in memory at a time. */
export const installerChunkBytes = 1024 * 1024;

// An upload whose process died mid-body leaves chunks nobody points at; the next upload drops them after a day.
const abandonedAfterMs = 24 * 60 * 60 * 1000;

export interface InstallerUpload {
  os: InstallerOs;
  body: Readable;
  contentType: string | undefined;
  /** The `Content-Length` the client announced, when it did (a chunked upload does not). */
  declaredLength: number | null;
  maxBytes: number;
  actor: string;
}

export interface InstallerUploadDeps {
  store: InstallerStore;
  clock: Clock;
}

// The rest of the body is not read: the connection closes after the answer instead of draining it.
const tooLarge = (maxBytes: number) =>
  gatewayError(
    'installer_too_large',
    `The installer is larger than ${maxBytes} bytes (GW_FLEET_INSTALLER_MAX_BYTES); nothing was stored.`,
    { headers: { connection: 'close' } },
  );

/**
 * Streams an upload into the store, one chunk in memory at a time, checking as it goes: the declared media type and
 * length before a byte is read, the package's leading bytes before a chunk is written, the running size against the
 * limit. The SHA-256 is computed on the way. Any failure, a client that goes away included, drops what was staged,
 * and the OS's previous package stays current; only a complete, checked upload is promoted.
 */
export async function receiveInstaller(deps: InstallerUploadDeps, upload: InstallerUpload): Promise<InstallerRecord> {
  const kind = kindOfOs[upload.os];
  if (!acceptsContentType(kind, upload.contentType))
    throw gatewayError(
      'installer_media_type',
      `The ${upload.os} installer is ${describeKind(kind)}: send it as ${servedContentType(kind)} or application/octet-stream.`,
    );
  if (upload.declaredLength !== null && upload.declaredLength > upload.maxBytes) throw tooLarge(upload.maxBytes);
  await deps.store.sweepAbandoned(new Date(deps.clock.now() - abandonedAfterMs));

  const uploadId = randomUUID();
  const hash = createHash('sha256');
  let chunk = Buffer.allocUnsafe(installerChunkBytes);
  let filled = 0;
  let seq = 0;
  let total = 0;
  const checkHead = () => {
    const problem = magicProblem(kind, chunk.subarray(0, filled));
    if (problem)
      throw gatewayError('installer_not_a_package', `${problem} Nothing was stored.`, {
        headers: { connection: 'close' },
      });
  };
  const flush = async () => {
    if (seq === 0) checkHead();
    await deps.store.stageChunk(uploadId, seq, chunk.subarray(0, filled), new Date(deps.clock.now()));
    seq += 1;
    chunk = Buffer.allocUnsafe(installerChunkBytes);
    filled = 0;
  };
  try {
    // Stopping early must not destroy the request: that would cut the socket before the client reads why (413, 400).
    for await (const piece of upload.body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      total += piece.length;
      if (total > upload.maxBytes) throw tooLarge(upload.maxBytes);
      hash.update(piece);
      let offset = 0;
      while (offset < piece.length) {
        const copied = piece.copy(chunk, filled, offset);
        filled += copied;
        offset += copied;
        if (seq === 0 && filled >= headBytes) checkHead();
        if (filled === installerChunkBytes) await flush();
      }
    }
    if (upload.declaredLength !== null && total !== upload.declaredLength) throw gatewayError('installer_incomplete');
    if (filled > 0 || seq === 0) await flush();
    const record: InstallerRecord = {
      os: upload.os,
      kind,
      contentType: servedContentType(kind),
      sizeBytes: total,
      sha256: hash.digest('hex'),
      uploadedAt: new Date(deps.clock.now()).toISOString(),
      uploadedBy: upload.actor,
      uploadId,
      chunkBytes: installerChunkBytes,
    };
    await deps.store.promote(record);
    return record;
  } catch (error) {
    // The failure is what the caller learns; chunks a failed discard leaves behind are swept with the abandoned ones.
    await deps.store.discard(uploadId).catch(() => undefined);
    throw error;
  }
}
