import type { Timers } from './timers.js';

export interface BackoffPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultBackoff: BackoffPolicy = { baseDelayMs: 1_000, maxDelayMs: 5 * 60_000 };

/**
 * A per-object work queue (client-go's rate-limited queue, in small): a key is queued at most once, is never
 * handed to two workers at the same time (an add while it is processed re-queues it when done), and failures
 * back off exponentially per key until `forget`.
 */
export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly delayed = new Map<string, { at: number; handle: unknown }>();
  private waiters: ((key: string | undefined) => void)[] = [];
  private shuttingDown = false;

  constructor(
    private readonly timers: Timers,
    private readonly backoff: BackoffPolicy = defaultBackoff,
  ) {}

  add(key: string): void {
    if (this.shuttingDown) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    const waiter = this.waiters.shift();
    if (waiter) {
      this.processing.add(key);
      waiter(key);
      return;
    }
    this.queued.add(key);
    this.queue.push(key);
  }

  /** Adds after a delay; an earlier pending delay for the same key wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) return this.add(key);
    const at = this.timers.now() + delayMs;
    const existing = this.delayed.get(key);
    if (existing && existing.at <= at) return;
    if (existing) this.timers.clearTimeout(existing.handle);
    const handle = this.timers.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, delayMs);
    this.delayed.set(key, { at, handle });
  }

  /** Re-queues after the key's next backoff delay (base × 2^failures, capped). Returns the delay. */
  addRateLimited(key: string): number {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    const delay = Math.min(this.backoff.baseDelayMs * 2 ** failures, this.backoff.maxDelayMs);
    this.addAfter(key, delay);
    return delay;
  }

  /** Clears the key's failure count after a success. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  failuresOf(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** The next key to process, or undefined once the queue shuts down. */
  get(): Promise<string | undefined> {
    const key = this.queue.shift();
    if (key !== undefined) {
      this.queued.delete(key);
      this.processing.add(key);
      return Promise.resolve(key);
    }
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.delete(key)) this.add(key);
  }

  /** Keys waiting (queued or delayed), for the queue-depth metric. */
  depth(): number {
    return this.queue.length + this.delayed.size;
  }

  shutDown(): void {
    this.shuttingDown = true;
    for (const { handle } of this.delayed.values()) this.timers.clearTimeout(handle);
    this.delayed.clear();
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
  }
}
