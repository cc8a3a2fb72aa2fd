import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { sleep } from '../core/real-timers.js';
import type { Turn } from '../core/responder.js';

/** Size of every `GET /v1/files/{id}/content` body unless the simulator's `fileContentBytes` says otherwise. */
export const DEFAULT_FILE_CONTENT_BYTES = 1024 * 1024;

// Written in pieces so clients (and a gateway relaying the body) meet a body that arrives in many reads.
const CHUNK_BYTES = 16 * 1024;
const LINE_DIGITS = 10;

/**
 * The content of file `id` is JSONL, one fixed-width line per index: `{"file":"<id>","line":"0000000042"}`. Every
 * byte depends on the id and its offset, so a lost, repeated or reordered chunk shows up in a byte comparison; a
 * size that is not a whole number of lines cuts the last line short.
 */
export function fileContentSlice(id: string, start: number, end: number): Buffer {
  if (end <= start) return Buffer.alloc(0);
  const prefix = Buffer.from(`{"file":${JSON.stringify(id)},"line":"`);
  const lineBytes = prefix.length + LINE_DIGITS + 3;
  const first = Math.floor(start / lineBytes);
  const last = Math.ceil(end / lineBytes);
  const lines = Buffer.allocUnsafe((last - first) * lineBytes);
  for (let line = first; line < last; line += 1) {
    const offset = (line - first) * lineBytes;
    prefix.copy(lines, offset);
    lines.write(`${String(line).padStart(LINE_DIGITS, '0')}"}\n`, offset + prefix.length, 'latin1');
  }
  return lines.subarray(start - first * lineBytes, end - first * lineBytes);
}

/** The whole body the simulator serves for file `id` (what a test compares a download against). */
export function simulatedFileContent(id: string, size = DEFAULT_FILE_CONTENT_BYTES): Buffer {
  return fileContentSlice(id, 0, size);
}

// A header value must be printable ASCII, and the filename sits between double quotes.
const attachmentName = (id: string): string => `${id.replace(/[^\x20-\x7e]|["\\]/g, '_')}.jsonl`;

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/**
 * `GET /v1/files/{id}/content`: `application/octet-stream` in chunks of 16 KiB, honouring back-pressure. A turn's
 * `eventDelayMs` paces the chunks and `dropConnection: {afterEvents: n}` closes the connection after n of them.
 */
export async function sendFileContent(
  response: ServerResponse,
  turn: Turn,
  headers: OutgoingHttpHeaders,
  id: string,
  size = DEFAULT_FILE_CONTENT_BYTES,
): Promise<void> {
  if (turn.latencyMs > 0) await sleep(turn.latencyMs);
  const drop = turn.behaviour.dropConnection;
  if (drop === true) {
    response.socket?.destroy();
    return;
  }
  response.writeHead(200, {
    'content-type': 'application/octet-stream',
    ...headers,
    'content-disposition': `attachment; filename="${attachmentName(id)}"`,
    ...turn.behaviour.headers,
    'content-length': size,
  });
  const dropAfter = drop?.afterEvents ?? Number.POSITIVE_INFINITY;
  for (let start = 0, chunk = 0; start < size; start += CHUNK_BYTES, chunk += 1) {
    if (chunk >= dropAfter) {
      if (chunk === 0) response.flushHeaders();
      response.socket?.end();
      return;
    }
    if (chunk > 0 && turn.eventDelayMs > 0) await sleep(turn.eventDelayMs);
    if (response.destroyed) return;
    if (!response.write(fileContentSlice(id, start, Math.min(size, start + CHUNK_BYTES)))) await drained(response);
  }
  response.end();
}
