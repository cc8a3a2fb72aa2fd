import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { gatewayError } from '../../errors.js';
import type { InstallerRecord, InstallerStore } from './installer.store.js';

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * One `Range: bytes=…` range of an installer (RFC 9110): `a-b`, `a-` or the suffix `-n`. A header this does not
 * read (another unit, several ranges, bad syntax) is ignored and the whole package served, as the RFC allows; a range
 * wholly past the end is refused with 416.
 */
export function byteRangeOf(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [first, last] = [match[1] ?? '', match[2] ?? ''];
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null;
  return start >= size ? 'unsatisfiable' : { start, end };
}

/** The package's bytes in `range`, read one stored chunk at a time. */
export function installerBytes(store: InstallerStore, record: InstallerRecord, range: ByteRange): Readable {
  async function* chunks() {
    const firstSeq = Math.floor(range.start / record.chunkBytes);
    const lastSeq = Math.floor(range.end / record.chunkBytes);
    for (let seq = firstSeq; seq <= lastSeq; seq += 1) {
      const chunk = await store.readChunk(record.uploadId, seq);
      // Replaced while this download ran: the connection is cut, so the client sees a short body, never a mixed one.
      if (!chunk) throw new Error('the installer was replaced during the download');
      const chunkStart = seq * record.chunkBytes;
      yield chunk.subarray(Math.max(0, range.start - chunkStart), Math.min(chunk.length, range.end - chunkStart + 1));
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

const base64Of = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

/**
 * Serves a download: the package's SHA-256 as its strong `ETag`, `Repr-Digest` (RFC 9530) and the older `Digest`
 * (RFC 3230), its length, `Accept-Ranges: bytes`; one byte range as 206, a matching `If-None-Match` as 304.
 */
export function sendInstaller(
  store: InstallerStore,
  record: InstallerRecord,
  headers: { range?: string | undefined; ifNoneMatch?: string | undefined },
  reply: FastifyReply,
): Readable | Buffer {
  const etag = `"${record.sha256}"`;
  void reply
    .header('etag', etag)
    .header('repr-digest', `sha-256=:${base64Of(record.sha256)}:`)
    .header('digest', `sha-256=${base64Of(record.sha256)}`)
    .header('accept-ranges', 'bytes')
    .header('last-modified', new Date(record.uploadedAt).toUTCString())
    .header('cache-control', 'private, no-cache');
  if (headers.ifNoneMatch?.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    void reply.code(304);
    return Buffer.alloc(0);
  }
  const range = byteRangeOf(headers.range, record.sizeBytes);
  if (range === 'unsatisfiable')
    throw gatewayError('range_not_satisfiable', undefined, {
      headers: { 'content-range': `bytes */${record.sizeBytes}` },
    });
  void reply
    .header('content-type', record.contentType)
    .header('content-disposition', `attachment; filename="gw-agent-${record.os}.${record.kind}"`);
  const served = range ?? { start: 0, end: record.sizeBytes - 1 };
  if (range) void reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${record.sizeBytes}`);
  void reply.header('content-length', String(served.end - served.start + 1));
  return installerBytes(store, record, served);
}
