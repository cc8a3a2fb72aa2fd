import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { describeCoordSuite } from './coord.suite.js';
import { MemoryCoord } from './memory-coord.js';

describeCoordSuite('MemoryCoord', async () => {
  const clock = new ManualClock();
  const coord = new MemoryCoord({ clock });
  return {
    coord,
    replica: () => coord,
    elapse: async (milliseconds) => clock.advance(milliseconds),
    dispose: () => coord.close(),
  };
});

function setup() {
  const clock = new ManualClock();
  return { clock, coord: new MemoryCoord({ clock }) };
}

describe('MemoryCoord on a fake clock', () => {
  it('expires a counter exactly ttlMs after it was created', async () => {
    const { clock, coord } = setup();
    await coord.incrementBy('k', 1, 1_000);
    clock.advance(999);
    expect(await coord.getCounter('k')).toBe(1);
    clock.advance(1);
    expect(await coord.getCounter('k')).toBe(0);
  });

  it('denies exactly the (limit+1)-th admission and admits again at exactly retryAfterMs', async () => {
    const { clock, coord } = setup();
    for (let admission = 1; admission <= 3; admission += 1) {
      expect(await coord.rateLimit('u', 3, 1_000)).toEqual({ allowed: true, count: admission, retryAfterMs: 0 });
      clock.advance(100);
    }
    const denied = await coord.rateLimit('u', 3, 1_000);
    expect(denied).toEqual({ allowed: false, count: 3, retryAfterMs: 700 });
    clock.advance(699);
    expect((await coord.rateLimit('u', 3, 1_000)).allowed).toBe(false);
    clock.advance(1);
    expect(await coord.rateLimit('u', 3, 1_000)).toEqual({ allowed: true, count: 3, retryAfterMs: 0 });
  });

  it('slides the window instead of resetting it at fixed boundaries', async () => {
    const { clock, coord } = setup();
    await coord.rateLimit('u', 2, 1_000);
    clock.advance(900);
    await coord.rateLimit('u', 2, 1_000);
    clock.advance(200);
    // The first admission left at 1000 ms; the second (at 900 ms) still counts until 1900 ms.
    expect(await coord.rateLimit('u', 2, 1_000)).toEqual({ allowed: true, count: 2, retryAfterMs: 0 });
    expect(await coord.rateLimit('u', 2, 1_000)).toEqual({ allowed: false, count: 2, retryAfterMs: 800 });
  });

  it('waits for enough admissions to leave when the limit was lowered', async () => {
    const { clock, coord } = setup();
    for (let admission = 0; admission < 4; admission += 1) {
      await coord.rateLimit('u', 10, 1_000);
      clock.advance(100);
    }
    // Admissions at 0, 100, 200, 300; with a limit of 2 the one at 200 must leave (at 1200) before one is free.
    expect(await coord.rateLimit('u', 2, 1_000)).toEqual({ allowed: false, count: 4, retryAfterMs: 800 });
  });

  it('expires a lease exactly leaseMs after it was taken or renewed', async () => {
    const { clock, coord } = setup();
    const lease = await coord.acquireSlot('s', 1, 1_000);
    clock.advance(500);
    await lease?.renew(1_000);
    clock.advance(999);
    expect(await coord.acquireSlot('s', 1, 1_000)).toBeNull();
    clock.advance(1);
    expect(await coord.acquireSlot('s', 1, 1_000)).not.toBeNull();
  });

  it('delivers published messages asynchronously, never inside publish', async () => {
    const { coord } = setup();
    const messages: string[] = [];
    await coord.subscribe('c', (message) => messages.push(message));
    const published = coord.publish('c', 'hello');
    expect(messages).toEqual([]);
    await published;
    await Promise.resolve();
    expect(messages).toEqual(['hello']);
  });

  it('drops expired state of idle keys so memory does not grow without bound', async () => {
    const { clock, coord } = setup();
    await coord.incrementBy('counter', 1, 1_000);
    await coord.setValue('value', 'v', 1_000);
    await coord.rateLimit('limiter', 5, 1_000);
    await coord.acquireSlot('semaphore', 5, 1_000);
    expect(coord.heldKeys).toBe(4);
    clock.advance(60_000);
    await coord.incrementBy('fresh', 1);
    expect(coord.heldKeys).toBe(1);
  });
});
