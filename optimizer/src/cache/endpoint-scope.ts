import { createHash } from 'node:crypto';

/** Hashed once per endpoint rather than on every optimize and cache call. */
const scopes = new Map<string, string>();

/**
 * The endpoint part of every cache key: a digest of the endpoint exactly as sent. The same body on two endpoints is
 * two questions, because the answer is in the wire format of the endpoint that asked (a chat.completion body must
 * never reach a Messages client), so both tiers hash it in and the key carries it. A digest rather than the text
 * keeps keys short and dot-free; 128 bits keeps two endpoints apart.
 */
export function endpointScope(endpoint: string): string {
  let scope = scopes.get(endpoint);
  if (scope === undefined) {
    scope = createHash('sha256').update(endpoint).digest('hex').slice(0, 32);
    // Endpoints are a handful of paths; the bound only guards against a caller inventing new ones on every call.
    if (scopes.size >= 256) scopes.clear();
    scopes.set(endpoint, scope);
  }
  return scope;
}
