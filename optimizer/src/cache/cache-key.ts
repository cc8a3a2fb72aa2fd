import { createHmac } from 'node:crypto';
import { timingSafeEqualString } from '@gw/platform';

/** `l`: may be served. `s`: shadow lane, measurement only, whatever a later write claims. */
export type CacheLane = 'l' | 's';

export interface CacheKeyParts {
  lane: CacheLane;
  /** `endpointScope` of the endpoint the key was minted for. */
  endpointScope: string;
  /** Already bound to the endpoint: the scope is part of what is hashed. */
  requestHash: string;
}

const keyShape = /^gwc2\.([ls])\.([0-9a-f]{32})\.([0-9a-f]{64})\.([0-9a-f]{32})$/;

/**
 * Cache keys bind lane, endpoint, request and caller partition with a MAC:
 * `gwc2.<lane>.<endpoint scope>.<request hash>.<mac>`. A key minted for another partition, or with its lane or
 * endpoint changed, fails `openCacheKey` (a consistency check, not authorization). Any other
 * shape, the retired `gwc1` keys minted before the endpoint joined the key included, opens nowhere.
 */
export function mintCacheKey(secret: Buffer, partition: string, parts: CacheKeyParts): string {
  return `gwc2.${parts.lane}.${parts.endpointScope}.${parts.requestHash}.${mac(secret, partition, parts)}`;
}

export function openCacheKey(secret: Buffer, partition: string, key: string): CacheKeyParts | null {
  const parts = readCacheKey(key);
  if (!parts) return null;
  return timingSafeEqualString(mac(secret, partition, parts), key.slice(key.lastIndexOf('.') + 1)) ? parts : null;
}

/**
 * A key's parts without checking its MAC: for the per-tenant lane, which re-derives the entry from the request it is
 * sent (rule 3) and takes from the key only what the caller could have had minted for it anyway.
 */
export function readCacheKey(key: string): CacheKeyParts | null {
  const match = keyShape.exec(key);
  return match ? { lane: match[1] as CacheLane, endpointScope: match[2], requestHash: match[3] } : null;
}

function mac(secret: Buffer, partition: string, parts: CacheKeyParts): string {
  return createHmac('sha256', secret)
    .update(`${parts.lane}\u0000${parts.endpointScope}\u0000${parts.requestHash}\u0000${partition}`)
    .digest('hex')
    .slice(0, 32);
}
