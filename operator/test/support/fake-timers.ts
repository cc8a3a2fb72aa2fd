import type { Timers } from '../../src/runtime/timers.js';

interface Pending {
  at: number;
  callback: () => void;
  id: number;
}

/** Timers that only fire when a test calls `advance`. */
export class FakeTimers implements Timers {
  private current: number;
  private pending: Pending[] = [];
  private nextId = 1;

  constructor(start = Date.UTC(2026, 0, 15, 12, 0, 0)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, delayMs: number): unknown {
    const entry = { at: this.current + Math.max(0, delayMs), callback, id: this.nextId++ };
    this.pending.push(entry);
    return entry.id;
  }

  clearTimeout(handle: unknown): void {
    this.pending = this.pending.filter((entry) => entry.id !== handle);
  }

  sleep(delayMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const handle = this.setTimeout(resolve, delayMs);
      signal?.addEventListener(
        'abort',
        () => {
          this.clearTimeout(handle);
          resolve();
        },
        { once: true },
      );
    });
  }

  /** Moves time forward, firing due timers in order (and the timers they set, when also due). */
  async advance(delayMs: number): Promise<void> {
    const target = this.current + delayMs;
    for (;;) {
      const due = this.pending
        .filter((entry) => entry.at <= target)
        .sort((left, right) => left.at - right.at || left.id - right.id)[0];
      if (due === undefined) break;
      this.pending = this.pending.filter((entry) => entry !== due);
      this.current = Math.max(this.current, due.at);
      due.callback();
      await flushMicrotasks();
    }
    this.current = target;
    await flushMicrotasks();
  }

  pendingCount(): number {
    return this.pending.length;
  }
}

/** Lets promise chains started by a fired timer run before the test looks. */
export async function flushMicrotasks(rounds = 20): Promise<void> {
  for (let round = 0; round < rounds; round += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}
