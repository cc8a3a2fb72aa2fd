import { describe, expect, it } from 'vitest';
import { FakeTimers } from '../../test/support/fake-timers.js';
import { WorkQueue } from './work-queue.js';

describe('WorkQueue', () => {
  it('queues a key once however often it is added', async () => {
    const queue = new WorkQueue(new FakeTimers());
    queue.add('ns/a');
    queue.add('ns/a');
    queue.add('ns/b');
    expect(queue.depth()).toBe(2);
    expect(await queue.get()).toBe('ns/a');
    expect(await queue.get()).toBe('ns/b');
  });

  it('never hands a key being processed to a second worker, and re-queues it when done', async () => {
    const queue = new WorkQueue(new FakeTimers());
    queue.add('ns/a');
    const key = await queue.get();
    queue.add('ns/a');
    expect(queue.depth()).toBe(0);
    queue.done(key!);
    expect(await queue.get()).toBe('ns/a');
  });

  it('backs off exponentially per key and resets after forget', async () => {
    const timers = new FakeTimers();
    const queue = new WorkQueue(timers, { baseDelayMs: 1_000, maxDelayMs: 5_000 });
    expect([1, 2, 3, 4].map(() => queue.addRateLimited('ns/a'))).toEqual([1_000, 2_000, 4_000, 5_000]);
    expect(queue.addRateLimited('ns/b')).toBe(1_000);
    queue.forget('ns/a');
    expect(queue.addRateLimited('ns/a')).toBe(1_000);
  });

  it('delivers a delayed key only when its time comes', async () => {
    const timers = new FakeTimers();
    const queue = new WorkQueue(timers);
    const next = queue.get();
    queue.addAfter('ns/a', 2_000);
    await timers.advance(1_999);
    let delivered: string | undefined;
    void next.then((key) => (delivered = key));
    await timers.advance(0);
    expect(delivered).toBeUndefined();
    await timers.advance(1);
    expect(delivered).toBe('ns/a');
  });

  it('keeps the earliest of two delays for one key', async () => {
    const timers = new FakeTimers();
    const queue = new WorkQueue(timers);
    queue.addAfter('ns/a', 5_000);
    queue.addAfter('ns/a', 1_000);
    queue.addAfter('ns/a', 3_000);
    expect(timers.pendingCount()).toBe(1);
    await timers.advance(1_000);
    expect(queue.depth()).toBe(1);
  });

  it('releases waiting workers on shutdown', async () => {
    const queue = new WorkQueue(new FakeTimers());
    const waiting = queue.get();
    queue.shutDown();
    expect(await waiting).toBeUndefined();
    queue.add('ns/a');
    expect(await queue.get()).toBeUndefined();
  });
});
