import { createHmac } from 'node:crypto';
import { timingSafeEqualString } from '@gw/platform';

/** `l`: may be served. `s`: shadow lane, measurement only, whatever a later write claims (spec 001 §2.4 rule 4). */
export type CacheLane = 'l' | 's';

export interface CacheKeyParts {
  lane: CacheLane;
  requestHash: string;
}

const keyShape = /^gwc1\.([ls])\.([0-9a-f]{64})\.([0-9a-f]{32})$/;

/**
 * Cache keys bind lane, request and caller partition with a MAC: `gwc1.<lane>.<request hash>.<mac>`. A key minted
 * for another partition, or with its lane flipped, fails `openCacheKey` (spec 001 §2.4 rule 2; a consistency check,
 * not authorization).
 */
export function mintCacheKey(secret: Buffer, partition: string, parts: CacheKeyParts): string {
  return `gwc1.${parts.lane}.${parts.requestHash}.${mac(secret, partition, parts)}`;
}

export function openCacheKey(secret: Buffer, partition: string, key: string): CacheKeyParts | null {
  const match = keyShape.exec(key);
  if (!match) return null;
  const parts: CacheKeyParts = { lane: match[1] as CacheLane, requestHash: match[2] };
  return timingSafeEqualString(mac(secret, partition, parts), match[3]) ? parts : null;
}

function mac(secret: Buffer, partition: string, parts: CacheKeyParts): string {
  return createHmac('sha256', secret).update(`${parts.lane}\u0000${parts.requestHash}\u0000${partition}`).digest('hex').slice(0, 32);
}
