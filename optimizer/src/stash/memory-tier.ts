import type { StashEntry } from './stash-entry.js';

/**
 * The in-memory tier: a read-through copy of durably written spans, bounded by total characters with
 * least-recently-used eviction. Expired entries read as absent.
 */
export class MemoryTier {
  private readonly entries = new Map<string, StashEntry>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(handle: string, now: number): StashEntry | null {
    const entry = this.entries.get(handle);
    if (!entry) return null;
    if (entry.expiresAt <= now) {
      this.delete(handle);
      return null;
    }
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.entries.delete(handle);
    this.entries.set(handle, entry);
    return entry;
  }

  set(entry: StashEntry): void {
    if (entry.totalChars > this.maxChars) return;
    this.delete(entry.handle);
    this.entries.set(entry.handle, entry);
    this.chars += entry.totalChars;
    for (const [handle] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.delete(handle);
    }
  }

  /** Drop every entry whose owner `matches`; returns how many. */
  purge(matches: (entry: StashEntry) => boolean): number {
    let purged = 0;
    for (const [handle, entry] of this.entries) {
      if (!matches(entry)) continue;
      this.delete(handle);
      purged += 1;
    }
    return purged;
  }

  delete(handle: string): void {
    const entry = this.entries.get(handle);
    if (!entry) return;
    this.entries.delete(handle);
    this.chars -= entry.totalChars;
  }
}
