import { z } from 'zod';
import { gatewayError } from '../errors.js';

/** Position after the last row of a page, for keyset paging on (created_at, id), newest first. */
export interface Keyset {
  at: Date;
  id: string;
}

/** Opaque to callers: base64url of the last row's timestamp and id. Stable while rows are added (they sort first). */
export function encodeCursor(position: Keyset): string {
  return Buffer.from(JSON.stringify([position.at.toISOString(), position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): Keyset {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string'
    ) {
      const at = new Date(parsed[0]);
      if (!Number.isNaN(at.getTime())) return { at, id: parsed[1] };
    }
  } catch {
    // fall through: any malformed cursor is the caller's error
  }
  throw gatewayError('invalid_request', 'query.cursor: not a cursor returned by this endpoint');
}

/** `limit` and `cursor` query parameters shared by paged v1 listings. */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50).describe('Page size, 1..500 (default 50)'),
  cursor: z.string().min(1).max(512).optional().describe('next_cursor of the previous page'),
});

/**
 * SQL fragment for "rows after the cursor" in (created_at DESC, id DESC) order; appends its parameters to `values`.
 * Row-value comparison keeps the index usable and never skips or repeats rows with equal timestamps.
 */
export function afterCursor(cursor: Keyset | null, values: unknown[]): string | null {
  if (!cursor) return null;
  values.push(cursor.at, cursor.id);
  return `(created_at, id) < ($${values.length - 1}, $${values.length})`;
}

/** Split a fetched page of `limit + 1` rows into the page and the cursor for the next one. */
export function pageOf<Row extends { created_at: Date | string; id: string }>(
  rows: Row[],
  limit: number,
): { rows: Row[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, nextCursor: encodeCursor({ at: new Date(last.created_at), id: last.id }) };
}
