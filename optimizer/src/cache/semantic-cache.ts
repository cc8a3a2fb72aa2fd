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
  /** Where the near-duplicate index points at this entry, if the request qualified for that tier. */
  nearId?: string;
}

/**
 * What a lookup is keyed by: the exact normalised hash, and the near-duplicate hash when the request qualifies. The
 * near one walks and rewrites every string of the request, so it is asked for only when the exact tier did not serve.
 */
export interface CacheLookupKeys {
  requestHash: string;
  nearHash: () => string | null;
}

export type CacheTier = 'exact' | 'near';

export interface SemanticCacheOptions {
  clock: Clock;
  maxEntries?: number;
  maxChars?: number;
}

export const cacheTtlBoundsSeconds = { min: 1, max: 86_400 } as const;

/**
 * The semantic cache: entries are keyed by caller partition and request hash, so nothing crosses partitions. The
 * exact normalised hash is tried first; on a miss, a request inside the near-duplicate limits (`near-duplicate.ts`)
 * is looked up by its layout-free hash in the same partition. The shadow tier measures how often a hit of either tier
 * would have equalled the live answer (`strictPrecision`), flushed to the shared store (`ShadowCounters`).
 */
export class SemanticCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly pendingComparisons = new Map<string, string>();
  /** Near-duplicate id → the entry it points at. */
  private readonly nearIndex = new Map<string, string>();
  /** Entry id → near-duplicate id, remembered at lookup for the write-back that follows on the shared-token lane. */
  private readonly nearOfPending = new Map<string, string>();
  private chars = 0;
  readonly counters: ShadowCounters;
  private readonly maxEntries: number;
  private readonly maxChars: number;

  constructor(private readonly options: SemanticCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxChars = options.maxChars ?? 64 * 1024 * 1024;
    this.counters = new ShadowCounters(options.clock);
  }

  /**
   * A servable response and its tier, or null. Every lookup counts for the shadow telemetry, servable or not. An exact
   * hit that is served needs no near-duplicate hash: nothing is looked up by it and no write-back follows a served
   * answer. Any other outcome computes it, to look a miss up by it and to index the live answer written back next.
   */
  lookup(
    partition: string,
    keys: CacheLookupKeys,
    canServe: boolean,
  ): { response: Record<string, unknown>; tier: CacheTier } | null {
    const id = entryId(partition, keys.requestHash);
    let entry = this.live(id);
    let tier: CacheTier = 'exact';
    if (entry && canServe && !entry.shadow) {
      this.counters.lookup(true);
      return { response: entry.response, tier };
    }
    const nearHash = keys.nearHash();
    const nearId = nearHash === null ? null : entryId(partition, nearHash);
    if (nearId !== null) boundedSet(this.nearOfPending, id, nearId, this.maxEntries);
    if (!entry && nearId !== null) {
      const target = this.nearIndex.get(nearId);
      entry = target === undefined ? null : this.live(target);
      tier = 'near';
    }
    this.counters.lookup(entry !== null);
    if (!entry) return null;
    if (canServe && !entry.shadow) return { response: entry.response, tier };
    // The live answer to this request is compared with what the hit would have served.
    boundedSet(this.pendingComparisons, id, entry.fingerprint, this.maxEntries);
    return null;
  }

  /** `nearHash`: the request's near-duplicate hash when the writer has the request; else the one seen at lookup. */
  store(
    partition: string,
    requestHash: string,
    response: Record<string, unknown>,
    ttlSeconds: number,
    shadow: boolean,
    nearHash?: string | null,
  ): void {
    const id = entryId(partition, requestHash);
    const nearId =
      nearHash === undefined
        ? this.nearOfPending.get(id)
        : nearHash === null
          ? undefined
          : entryId(partition, nearHash);
    this.nearOfPending.delete(id);
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
    const entry: CacheEntry = {
      response: shadow ? {} : response,
      fingerprint,
      shadow,
      expiresAt: this.options.clock.now() + ttl * 1000,
      size: shadow ? 64 : serialized.length,
      ...(nearId ? { nearId } : {}),
    };
    this.entries.set(id, entry);
    // Like the exact tier: a measurement-only entry never takes the near-duplicate slot of a servable one.
    const indexed = nearId === undefined ? undefined : this.nearIndex.get(nearId);
    const keepsServable = shadow && indexed !== undefined && this.live(indexed)?.shadow === false;
    if (nearId !== undefined && !keepsServable) this.nearIndex.set(nearId, id);
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
    if (entry.nearId !== undefined && this.nearIndex.get(entry.nearId) === id) this.nearIndex.delete(entry.nearId);
  }
}

/** Bookkeeping maps start over rather than grow without bound (a lost comparison only thins the telemetry). */
function boundedSet<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  if (map.size >= max) map.clear();
  map.set(key, value);
}

function entryId(partition: string, requestHash: string): string {
  return `${partition}\u0001${requestHash}`;
}
