/**
 * Waits on a condition that something else makes true: the owner calls `notify()` after every change it takes, and
 * each pending `until` re-checks its condition then (and once at once, so a condition already true resolves). There
 * is no clock: a wait that never comes true ends with the test's own timeout, which aborts the test's `signal`, and
 * the wait then rejects naming what it was waiting for.
 */
export class ChangeSignal {
  private readonly listeners = new Set<() => void>();

  notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  until(what: string, condition: () => boolean, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const settle = (error?: Error) => {
        this.listeners.delete(check);
        signal?.removeEventListener('abort', abort);
        if (error) reject(error);
        else resolve();
      };
      const check = () => {
        if (condition()) settle();
      };
      const abort = () => settle(stillWaiting(signal, what));
      if (signal?.aborted) return abort();
      this.listeners.add(check);
      signal?.addEventListener('abort', abort, { once: true });
      check();
    });
  }
}

/**
 * The error a wait rejects with when the test's `signal` aborts first. Vitest reports its own timeout error then and
 * drops the test's later rejections, so the wait's name is also added to that error (the signal's reason), which is
 * what the report shows.
 */
export function stillWaiting(signal: AbortSignal | undefined, what: string): Error {
  const message = `Still waiting for ${what} when the test ended.`;
  if (signal?.reason instanceof Error && !signal.reason.message.includes(message))
    signal.reason.message += ` ${message}`;
  return new Error(message);
}
