import { createHmac, hkdfSync } from 'node:crypto';
import type { StashOwner } from './stash-entry.js';

/** `ctx_` plus at least 24 base64url characters. */
export const handlePattern = /^ctx_[A-Za-z0-9_-]{24,}$/;

/** A handle key derived from the content key, so handles are unguessable without it and stable across replicas. */
export function deriveHandleKey(contentKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', contentKey, Buffer.alloc(0), 'gw-optimizer-stash-handle-v1', 32));
}

/**
 * A handle is a keyed MAC of owner and content (32 base64url characters, 192 bits): as unguessable as a random token,
 * yet the same span stashed again gets the same handle, so optimizing the same request twice yields the same bytes
 * (determinism) and re-storing restarts the window instead of piling up rows.
 */
export function mintHandle(handleKey: Buffer, owner: StashOwner, content: string): string {
  const mac = createHmac('sha256', handleKey)
    .update(`${owner.tenant}\u0000${owner.user ?? ''}\u0000${owner.team ?? ''}\u0000`)
    .update(content)
    .digest();
  return `ctx_${mac.subarray(0, 24).toString('base64url')}`;
}
