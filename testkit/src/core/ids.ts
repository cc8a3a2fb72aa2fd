import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Ids shaped like the providers' (`chatcmpl-…`, `msg_01…`, `toolu_01…`, `call_…`, `req_…`): a random per-simulator
 * salt plus a counter, so they are unique across simulators and cheap to mint on the hot path (no crypto per request).
 */
export interface IdSource {
  next(prefix: string, length?: number): string;
}

export function createIdSource(): IdSource {
  const saltBytes = randomBytes(8);
  let salt = '';
  for (const byte of saltBytes) salt += ALPHABET[byte % ALPHABET.length];
  let counter = 0;
  return {
    next(prefix: string, length = 24): string {
      counter += 1;
      const tail = counter.toString(36).padStart(Math.max(1, length - salt.length), '0');
      return `${prefix}${salt}${tail}`;
    },
  };
}
