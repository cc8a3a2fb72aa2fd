import { createHash } from 'node:crypto';

/**
 * The endpoint part of every cache key: a digest of the endpoint exactly as sent. The same body on two endpoints is
 * two questions, because the answer is in the wire format of the endpoint that asked (a chat.completion body must
 * never reach a Messages client), so both tiers hash it in and the key carries it. A digest rather than the text
 * keeps keys short and dot-free; 128 bits keeps two endpoints apart.
 */
export function endpointScope(endpoint: string): string {
  return createHash('sha256').update(endpoint).digest('hex').slice(0, 32);
}
