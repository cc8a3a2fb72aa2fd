import { isStoreFault, Keyring, type Clock, type Db } from '@gw/platform';
import type { RetrievalStoreState } from '@gw/contracts';
import { storeReadTimeoutMs, TimeoutError, withTimeout } from '../store/with-timeout.js';
import { DurableTier, StoreUnavailableError, type OwnerCheck, type StashPurgeFilter } from './durable-tier.js';
import { deriveHandleKey, handlePattern, mintHandle } from './handle.js';
import { countLines } from './lines.js';
import { MemoryTier } from './memory-tier.js';
import {
  defaultStashTtlSeconds,
  extendedExpiry,
  readCeilingMs,
  type StashEntry,
  type StashOwner,
} from './stash-entry.js';

/** What a strategy sees: `put` answers a handle only after the durable write completed, else null (keep the bytes). */
export interface StashPort {
  put(content: string, options?: { ttlSeconds?: number }): Promise<string | null>;
  /** Best effort: a replayed pin re-persists its existing handle, restarting the window. */
  refresh(handle: string, content: string): Promise<boolean>;
}

export interface DurableSettings {
  db: Db | null;
  /** GW_CONTENT_KEY, 64 hex characters; none means content cannot be stored. */
  contentKey: string | null;
  /** `off` stops new rows (earlier rows stay readable); any other mode permits encrypted storage. */
  contentMode: string;
}

export interface StashOptions {
  clock: Clock;
  /** Bound of the in-memory tier in characters. */
  memoryMaxChars?: number;
  /** A durable write slower than this trips the cooldown circuit. */
  writeTimeoutMs?: number;
  readTimeoutMs?: number;
  cooldownMs?: number;
  /** `rejected`: the store refused this row's values (the caller's data); the circuit stays closed. */
  onWrite?: (outcome: 'stored' | 'refused' | 'failed' | 'rejected') => void;
}

/** Five-minute retry circuit after a failed bounded write. */
export const durableWriteCooldownMs = 5 * 60_000;

function sameOwner(a: StashOwner, b: StashOwner): boolean {
  return a.tenant === b.tenant && a.user === b.user && a.team === b.team;
}

/** A replayed handle is stored again once less than this much of its window is left. */
const refreshAheadMs = (defaultStashTtlSeconds * 1000) / 2;

/**
 * The reversible stash: a memory tier in front of the durable AES-256-GCM tier, and the retrieval-store state
 * machine (`ready`, `cooldown`, `unconfigured`, `content_disabled`) that decides whether fresh
 * handles may be minted. The state governs handle creation only; reads go on in every state.
 */
export class Stash {
  private readonly memory: MemoryTier;
  private durable: DurableTier | null = null;
  private db: Db | null = null;
  private handleKey: Buffer | null = null;
  private contentMode = 'full';
  private cooldownUntil = 0;
  private readonly writeTimeoutMs: number;
  private readonly readTimeoutMs: number;
  private readonly cooldownMs: number;

  constructor(private readonly options: StashOptions) {
    this.memory = new MemoryTier(options.memoryMaxChars ?? 64 * 1024 * 1024);
    this.writeTimeoutMs = options.writeTimeoutMs ?? 250;
    this.readTimeoutMs = options.readTimeoutMs ?? storeReadTimeoutMs;
    this.cooldownMs = options.cooldownMs ?? durableWriteCooldownMs;
  }

  /** (Re)point the durable tier: at boot and when the gateway bootstraps durable config. */
  configure(settings: DurableSettings): void {
    const keyring = settings.contentKey ? Keyring.fromHexKey(settings.contentKey) : null;
    this.db = settings.db;
    this.durable = settings.db && keyring ? new DurableTier(settings.db, keyring) : null;
    this.handleKey = settings.contentKey ? deriveHandleKey(Buffer.from(settings.contentKey, 'hex')) : null;
    this.contentMode = settings.contentMode;
    this.cooldownUntil = 0;
  }

  get durableDb(): Db | null {
    return this.db;
  }

  state(): RetrievalStoreState {
    if (!this.db) return 'unconfigured';
    // No content key: encryption forbids durable storage, so no fresh handles either.
    if (!this.durable || this.contentMode === 'off') return 'content_disabled';
    if (this.options.clock.now() < this.cooldownUntil) return 'cooldown';
    return 'ready';
  }

  /** A strategy-facing port bound to one owner. */
  forOwner(owner: StashOwner): StashPort {
    return {
      put: (content, options) => this.put(owner, content, options?.ttlSeconds),
      refresh: async (handle, content) => {
        if (this.handleKey === null) return false;
        // Live here for this owner and these bytes, with most of its window ahead: it entered memory only after its
        // durable write, so there is nothing to restore (and the handle was verified when it was minted). Writing
        // every replayed original again on every turn would cost a MAC, an encrypt and an upsert per handle per
        // turn. Near the end of its window it is stored again, which starts a fresh one.
        const now = this.options.clock.now();
        const live = this.memory.get(handle, now);
        if (live && sameOwner(live.owner, owner) && live.content === content && live.expiresAt - now > refreshAheadMs)
          return true;
        if (mintHandle(this.handleKey, owner, content) !== handle) return false;
        return (await this.put(owner, content)) === handle;
      },
    };
  }

  async put(owner: StashOwner, content: string, ttlSeconds = defaultStashTtlSeconds): Promise<string | null> {
    const durable = this.durable;
    if (this.state() !== 'ready' || !durable || !this.handleKey) {
      this.options.onWrite?.('refused');
      return null;
    }
    // The durable row holds UTF-8, where a lone surrogate would come back as U+FFFD: a retrieve on another replica
    // would not return the original. Such an output keeps its bytes instead (no handle).
    if (!content.isWellFormed()) {
      this.options.onWrite?.('rejected');
      return null;
    }
    const now = this.options.clock.now();
    const ceilingAt = now + readCeilingMs;
    const entry: StashEntry = {
      handle: mintHandle(this.handleKey, owner, content),
      content,
      owner,
      createdAt: now,
      expiresAt: Math.min(now + Math.max(1, ttlSeconds) * 1000, ceilingAt),
      ceilingAt,
      totalLines: countLines(content),
      totalChars: content.length,
    };
    try {
      await withTimeout(durable.put(entry), this.writeTimeoutMs);
    } catch (error) {
      // Either way the span keeps its bytes (no handle). Only a store that cannot take writes opens the circuit for
      // everyone: a row refused for its own values (SQLSTATE 22/23) must not let one caller turn handles off.
      const fault = isStoreFault(error);
      if (fault) this.cooldownUntil = this.options.clock.now() + this.cooldownMs;
      this.options.onWrite?.(fault ? 'failed' : 'rejected');
      return null;
    }
    this.memory.set(entry);
    this.options.onWrite?.('stored');
    return entry.handle;
  }

  /**
   * The live entry for a handle, memory first. Null for unknown or expired, and for one whose owner `mayRead`
   * refuses: that is decided on the owner alone, before its row is decrypted, so another caller's handle costs no
   * decryption and reads exactly as an unknown one. Throws StoreUnavailableError when the durable tier cannot answer
   * and RowUnreadableError when the caller's own row does not decrypt.
   */
  async read(handle: string, mayRead: OwnerCheck = () => true): Promise<StashEntry | null> {
    if (!handlePattern.test(handle)) return null;
    const now = this.options.clock.now();
    const cached = this.memory.get(handle, now);
    if (cached) return mayRead(cached.owner) ? cached : null;
    const durable = this.durable;
    if (!durable) return null;
    const entry = await withTimeout(durable.get(handle, now, mayRead), this.readTimeoutMs).catch((error: unknown) => {
      throw error instanceof TimeoutError ? new StoreUnavailableError(error) : error;
    });
    if (entry) this.memory.set(entry);
    return entry;
  }

  /** Each successful retrieve extends life by 30 minutes in both tiers, up to the 48-hour ceiling. */
  async extend(entry: StashEntry): Promise<void> {
    const expiresAt = extendedExpiry(entry);
    this.memory.set({ ...entry, expiresAt });
    try {
      await this.durable?.extend(entry.handle, expiresAt);
    } catch {
      // Best effort: the read already succeeded; the memory tier carries the extension on this replica.
    }
  }

  /** The user's own durable rows, for recall. Empty with no durable tier. */
  async listForUser(owner: { tenant: string; user: string }, limit: number): Promise<StashEntry[]> {
    if (!this.durable) return [];
    return withTimeout(this.durable.listForUser(owner, this.options.clock.now(), limit), this.readTimeoutMs);
  }

  /**
   * Drop stashed originals from both tiers. The durable tier is what every replica reads; another replica's memory
   * tier keeps its read-through copies until they expire or are evicted (it is bounded and holds only spans read or
   * written there), so a purge is complete for the fleet once those copies age out.
   */
  async purge(filter: StashPurgeFilter): Promise<{ memory: number; durable: number }> {
    const matches = (entry: StashEntry) =>
      (filter.tenant === undefined || entry.owner.tenant === filter.tenant) &&
      (filter.user === undefined || entry.owner.user === filter.user);
    const memory = this.memory.purge(matches);
    const durable = this.durable ? await withTimeout(this.durable.purge(filter), this.writeTimeoutMs) : 0;
    return { memory, durable };
  }

  async sweep(): Promise<number> {
    return this.durable ? this.durable.sweep(this.options.clock.now()) : 0;
  }
}
