/** Who a stashed span belongs to: recall reads only the requesting user's rows. */
export interface StashOwner {
  tenant: string;
  user?: string | undefined;
  team?: string | undefined;
}

export interface StashEntry {
  handle: string;
  content: string;
  owner: StashOwner;
  createdAt: number;
  /** Sliding expiry: strategy ttl at first, +30 minutes per retrieve. */
  expiresAt: number;
  /** Absolute read ceiling: created + 48 hours. */
  ceilingAt: number;
  totalLines: number;
  totalChars: number;
}

export const retrieveExtensionMs = 30 * 60_000;
export const readCeilingMs = 48 * 60 * 60_000;
export const defaultStashTtlSeconds = 4 * 60 * 60;

/** Life after one more successful retrieve: 30 minutes more, never past the ceiling. */
export function extendedExpiry(entry: Pick<StashEntry, 'expiresAt' | 'ceilingAt'>): number {
  return Math.min(entry.expiresAt + retrieveExtensionMs, entry.ceilingAt);
}
