import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';
import type { Coord, CounterIncrement, RateDecision, SlotLease } from './coord.js';
import { checkDelta, checkLimit, checkMilliseconds, counterValue, optionalMilliseconds } from './coord-arguments.js';
import type { CoordLogger } from './coord-logger.js';
import { ListenerRegistry } from './listener-registry.js';
import { isStale, pruneLog, recordAdmission, retryAfter, type SlidingLog } from './sliding-log.js';

export interface MemoryCoordOptions {
  /** Every TTL, window and lease is measured on this clock (tests pass a `ManualClock`). */
  clock?: Clock;
  logger?: CoordLogger;
}

interface Entry {
  value: string;
  /** Epoch milliseconds at which the entry is gone; null when it never expires. */
  expiresAt: number | null;
}

/** How often, at most, a write also walks every key to drop expired state (there is no timer; see below). */
const sweepIntervalMs = 60_000;

/**
 * In-process coordination for a single replica (no `GW_REDIS_URL`). Same semantics as `RedisCoord`, checked by the
 * shared conformance suite, with one difference: time comes from the injected clock, where Redis uses its own
 * server time so that replicas with skewed clocks agree.
 *
 * The rate limiter is an exact sliding log, not an approximation. Expiry is lazy: a key is checked when it is
 * touched, and at most once a minute a write sweeps everything expired so idle keys do not pile up. No timers run,
 * so this never keeps the process alive. Pub/sub delivers to local subscribers in microtasks.
 */
export class MemoryCoord implements Coord {
  private readonly clock: Clock;
  private readonly entries = new Map<string, Entry>();
  private readonly rateLogs = new Map<string, SlidingLog>();
  private readonly semaphores = new Map<string, Map<string, number>>();
  private readonly listeners: ListenerRegistry;
  private lastSweep: number;
  private closed = false;

  constructor(options: MemoryCoordOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.listeners = new ListenerRegistry(options.logger);
    this.lastSweep = this.clock.now();
  }

  /** Keys currently held in memory (counters, values, limiter logs, semaphores): a gauge for diagnostics. */
  get heldKeys(): number {
    return this.entries.size + this.rateLogs.size + this.semaphores.size;
  }

  async incrementBy(key: string, delta: number, ttlMs?: number): Promise<number> {
    const now = this.begin();
    return this.increment(key, checkDelta(delta), optionalMilliseconds('ttlMs', ttlMs), now);
  }

  async incrementMany(increments: readonly CounterIncrement[]): Promise<number[]> {
    const now = this.begin();
    const checked = increments.map(({ key, delta, ttlMs }) => ({
      key,
      delta: checkDelta(delta),
      ttl: optionalMilliseconds('ttlMs', ttlMs),
    }));
    return checked.map(({ key, delta, ttl }) => this.increment(key, delta, ttl, now));
  }

  private increment(key: string, delta: number, ttl: number, now: number): number {
    const entry = this.live(key, now);
    const current = entry === undefined ? 0 : Number(entry.value);
    if (!Number.isFinite(current)) throw new Error(`coord: value at "${key}" is not a number`);
    const next = current + delta;
    const expiresAt = entry?.expiresAt ?? (ttl > 0 ? now + ttl : null);
    this.entries.set(key, { value: String(next), expiresAt });
    return next;
  }

  async getCounter(key: string): Promise<number> {
    const now = this.begin();
    return counterValue(this.live(key, now)?.value);
  }

  async getCounters(keys: readonly string[]): Promise<number[]> {
    const now = this.begin();
    return keys.map((key) => counterValue(this.live(key, now)?.value));
  }

  async delete(key: string): Promise<void> {
    this.begin();
    this.entries.delete(key);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const now = this.begin();
    const ttl = checkMilliseconds('ttlMs', ttlMs);
    if (this.live(key, now) !== undefined) return false;
    this.entries.set(key, { value, expiresAt: now + ttl });
    return true;
  }

  async setValue(key: string, value: string, ttlMs: number): Promise<void> {
    const now = this.begin();
    const ttl = checkMilliseconds('ttlMs', ttlMs);
    this.entries.set(key, { value, expiresAt: now + ttl });
  }

  async getValue(key: string): Promise<string | null> {
    const now = this.begin();
    return this.live(key, now)?.value ?? null;
  }

  async rateLimit(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    const now = this.begin();
    const max = checkLimit(limit);
    const window = checkMilliseconds('windowMs', windowMs);
    const log = this.rateLogs.get(key) ?? { times: [], windowMs: window };
    log.windowMs = window;
    pruneLog(log, now);
    if (log.times.length < max) {
      recordAdmission(log, now);
      this.rateLogs.set(key, log);
      return { allowed: true, count: log.times.length, retryAfterMs: 0 };
    }
    if (log.times.length === 0) this.rateLogs.delete(key);
    return { allowed: false, count: log.times.length, retryAfterMs: retryAfter(log, max, now) };
  }

  async acquireSlot(key: string, limit: number, leaseMs: number): Promise<SlotLease | null> {
    const now = this.begin();
    const max = checkLimit(limit);
    const lease = checkMilliseconds('leaseMs', leaseMs);
    const holders = this.semaphores.get(key) ?? new Map<string, number>();
    dropExpiredLeases(holders, now);
    if (holders.size >= max) {
      if (holders.size === 0) this.semaphores.delete(key);
      return null;
    }
    const leaseId = randomUUID();
    holders.set(leaseId, now + lease);
    this.semaphores.set(key, holders);
    return {
      release: async () => {
        this.begin();
        this.forgetLease(key, leaseId);
      },
      renew: async (renewMs: number) => this.renewLease(key, leaseId, renewMs),
    };
  }

  async publish(channel: string, message: string): Promise<void> {
    this.begin();
    this.listeners.deliverLater(channel, message);
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    this.begin();
    const added = this.listeners.add(channel, listener);
    return async () => {
      added.remove();
    };
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.entries.clear();
    this.rateLogs.clear();
    this.semaphores.clear();
    this.listeners.clear();
  }

  private async renewLease(key: string, leaseId: string, renewMs: number): Promise<void> {
    const now = this.begin();
    const lease = checkMilliseconds('leaseMs', renewMs);
    const holders = this.semaphores.get(key);
    const expiresAt = holders?.get(leaseId);
    if (holders === undefined || expiresAt === undefined) return;
    // A lease that already expired stays lost: its slot may have been taken, and reviving it could overfill.
    if (expiresAt <= now) {
      this.forgetLease(key, leaseId);
      return;
    }
    holders.set(leaseId, now + lease);
  }

  private forgetLease(key: string, leaseId: string): void {
    const holders = this.semaphores.get(key);
    if (holders === undefined) return;
    holders.delete(leaseId);
    if (holders.size === 0) this.semaphores.delete(key);
  }

  /** The live entry for a key, dropping it when expired. */
  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Every call starts here: refuse after close (as Redis does), read the clock once, sweep when due. */
  private begin(): number {
    if (this.closed) throw new Error('coord: closed');
    const now = this.clock.now();
    if (now - this.lastSweep >= sweepIntervalMs) this.sweep(now);
    return now;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt !== null && entry.expiresAt <= now) this.entries.delete(key);
    }
    for (const [key, log] of this.rateLogs) {
      if (isStale(log, now)) this.rateLogs.delete(key);
    }
    for (const [key, holders] of this.semaphores) {
      dropExpiredLeases(holders, now);
      if (holders.size === 0) this.semaphores.delete(key);
    }
  }
}

/** A lease is held while `now < expiresAt`, the same rule the Redis script applies. */
function dropExpiredLeases(holders: Map<string, number>, now: number): void {
  for (const [leaseId, expiresAt] of holders) {
    if (expiresAt <= now) holders.delete(leaseId);
  }
}
