import type { Clock } from '@gw/platform';

/** Injected timers: queues, informers and leader election wait through this, so tests drive time by hand. */
export interface Timers extends Clock {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
  sleep(delayMs: number, signal?: AbortSignal): Promise<void>;
}

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  sleep: (delayMs, signal) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, delayMs);
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    }),
};
