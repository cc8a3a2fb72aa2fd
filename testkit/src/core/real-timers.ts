/**
 * Timer functions captured when the testkit is loaded. Tests of the gateway may install fake timers
 * (`vi.useFakeTimers()`) after importing us; simulated network latency must still elapse in real time, or a
 * simulator would hang until the test advanced its fake clock.
 */
const capturedSetTimeout = globalThis.setTimeout;
const capturedClearTimeout = globalThis.clearTimeout;

export function realSetTimeout(callback: () => void, milliseconds: number): NodeJS.Timeout {
  return capturedSetTimeout(callback, milliseconds);
}

export function realClearTimeout(timer: NodeJS.Timeout): void {
  capturedClearTimeout(timer);
}

export function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => {
    capturedSetTimeout(resolve, milliseconds);
  });
}
