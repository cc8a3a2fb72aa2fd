import { randomUUID } from 'node:crypto';

/**
 * A UUID version 7 (RFC 9562): the first 48 bits are the Unix time in milliseconds, the rest random (74 bits), so
 * ids made later sort later. Rows keyed by it land at the right edge of their primary-key index instead of on a
 * random page: fewer pages touched per insert, and fewer full-page images in the write-ahead log after each
 * checkpoint, which is what a table written on every call needs. Still a UUID for anyone who reads one.
 *
 * Built from `randomUUID` (Node keeps a pool of random bytes for it): its variant bits and 74 of its random bits
 * are kept, the time replaces its first twelve hex digits, and the version digit becomes 7.
 */
export function timeOrderedUuid(nowMs: number = Date.now()): string {
  const random = randomUUID();
  const time = Math.trunc(nowMs).toString(16).padStart(12, '0').slice(-12);
  // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: time in the first 8 + 4 digits, version at index 14.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15)}`;
}
