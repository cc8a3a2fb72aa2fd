import { createHash } from 'node:crypto';
import type { Clock } from '@gw/platform';
import { ShadowCounters } from './shadow-counters.js';

export interface CacheEntry {
  response: Record<string, unknown>;
  /** SHA-256 of the stored response: the shadow tier compares it with the next live answer. */
  fingerprint: string;
  shadow: boolean;
  expiresAt: number;
  size: number;
}

export interface SemanticCacheOptions {
  clock: Clock;
  maxEntries?: number;
  maxChars?: number;
}

export const cacheTtlBoundsSeconds = { min: 1, max: 86_400 } as const;

/**
 * The semantic cache, exact normalised-hash tier only: entries are keyed by caller partition and request hash, so
 * nothing crosses partitions. Near-duplicate matching is not served at all; the shadow tier measures how often an
 * exact hit would have equalled the live answer (`strictPrecision`), flushed to the shared store (`ShadowCounters`).
 */
export class SemanticCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly pendingComparisons = new Map<string, string>();
  private chars = 0;
  readonly counters: ShadowCounters;
  private readonly maxEntries: number;
  private readonly maxChars: number;

  constructor(private readonly options: SemanticCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxChars = options.maxChars ?? 64 * 1024 * 1024;
    this.counters = new ShadowCounters(options.clock);
  }

  /** A servable response, or null. Every lookup counts for the shadow telemetry, servable or not. */
  lookup(partition: string, requestHash: string, canServe: boolean): Record<string, unknown> | null {
    const id = entryId(partition, requestHash);
    const entry = this.live(id);
    this.counters.lookup(entry !== null);
    if (!entry) return null;
    if (canServe && !entry.shadow) return entry.response;
    if (this.pendingComparisons.size >= this.maxEntries) this.pendingComparisons.clear();
    this.pendingComparisons.set(id, entry.fingerprint);
    return null;
  }

  store(partition: string, requestHash: string, response: Record<string, unknown>, ttlSeconds: number, shadow: boolean): void {
    const id = entryId(partition, requestHash);
    const serialized = JSON.stringify(response);
    const fingerprint = createHash('sha256').update(serialized).digest('hex');
    const pending = this.pendingComparisons.get(id);
    if (pending !== undefined) {
      this.pendingComparisons.delete(id);
      this.counters.compare(pending === fingerprint);
    }
    if (serialized.length > this.maxChars) return;
    // A measurement-only write never displaces a servable answer for the same request.
    if (shadow && this.live(id)?.shadow === false) return;
    const ttl = Math.min(Math.max(ttlSeconds, cacheTtlBoundsSeconds.min), cacheTtlBoundsSeconds.max);
    this.remove(id);
    // A shadow entry keeps only its fingerprint: it is never served, so the body need not be held.
    const entry: CacheEntry = { response: shadow ? {} : response, fingerprint, shadow, expiresAt: this.options.clock.now() + ttl * 1000, size: shadow ? 64 : serialized.length };
    this.entries.set(id, entry);
    this.chars += entry.size;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.remove(oldest);
    }
  }

  private live(id: string): CacheEntry | null {
    const entry = this.entries.get(id);
    if (!entry) return null;
    if (entry.expiresAt <= this.options.clock.now()) {
      this.remove(id);
      return null;
    }
    return entry;
  }

  private remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.chars -= entry.size;
  }
}

function entryId(partition: string, requestHash: string): string {
  return `${partition}\u0001${requestHash}`;
}
