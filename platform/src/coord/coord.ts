/**
 * Coordination between gateway replicas: what must be shared in real time (limits, counters, revocation,
 * replay windows, throttle pauses). Two implementations: Redis (many replicas) and in-process (one replica).
 * Both pass the one shared conformance suite in `coord.suite.ts`.
 */
/** One counter change of `Coord.incrementMany`, with the same meaning as `incrementBy`'s arguments. */
export interface CounterIncrement {
  key: string;
  delta: number;
  ttlMs?: number;
}

export interface Coord {
  /** Atomically add `delta` to a counter and return the new value. `ttlMs` sets expiry when the key is created (or has none). */
  incrementBy(key: string, delta: number, ttlMs?: number): Promise<number>;
  /**
   * Several `incrementBy`s in one round trip (metering a batch touches a handful of counters at once); the new
   * values in the order given. A bad delta or TTL anywhere rejects the call before any counter moves.
   */
  incrementMany(increments: readonly CounterIncrement[]): Promise<number[]>;
  /** Current value of a counter (0 when absent or expired). */
  getCounter(key: string): Promise<number>;
  /** Several counters in one round trip, in the order asked. */
  getCounters(keys: readonly string[]): Promise<number[]>;
  /** Delete a counter or value. */
  delete(key: string): Promise<void>;

  /** Set a value only if the key is absent; true when it was set (replay windows, leader claims). */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Set a value unconditionally with expiry. */
  setValue(key: string, value: string, ttlMs: number): Promise<void>;
  /** Read a value (null when absent or expired). */
  getValue(key: string): Promise<string | null>;

  /**
   * Sliding-window rate limit: admit when fewer than `limit` admissions happened in the last `windowMs`.
   * A denial carries how long until the oldest admission leaves the window.
   */
  rateLimit(key: string, limit: number, windowMs: number): Promise<RateDecision>;

  /**
   * Concurrency semaphore: take one of `limit` slots for `leaseMs`. A holder that dies without releasing loses
   * the slot when its lease expires, so a crashed replica or dropped client never leaks capacity for long.
   */
  acquireSlot(key: string, limit: number, leaseMs: number): Promise<SlotLease | null>;

  /** Publish an invalidation message on a channel to every replica (including this one). */
  publish(channel: string, message: string): Promise<void>;
  /** Receive messages on a channel; returns an unsubscribe function. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;

  /** Liveness probe of the backing store. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface RateDecision {
  allowed: boolean;
  /** Admissions counted in the window after this decision. */
  count: number;
  /** When denied: milliseconds until a slot frees up (>= 1). When allowed: 0. */
  retryAfterMs: number;
}

export interface SlotLease {
  /** Give the slot back. Idempotent. */
  release(): Promise<void>;
  /** Extend the lease of a long request. */
  renew(leaseMs: number): Promise<void>;
}
