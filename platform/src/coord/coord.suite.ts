import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Coord, SlotLease } from './coord.js';

/** What the conformance suite needs from an implementation under test. */
export interface CoordFixture {
  coord: Coord;
  /** Another replica over the same shared state (in process there is one replica, so the same instance). */
  replica(): Coord;
  /** Lets time pass: moves a fake clock, or sleeps when the store keeps its own time (Redis). */
  elapse(milliseconds: number): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * The one conformance suite every `Coord` passes. Durations are short enough for a real Redis (whose clock cannot
 * be faked) yet leave margins of 50 ms or more, so it is also stable under load; exact boundaries are asserted
 * with a fake clock in the in-process tests.
 */
export function describeCoordSuite(name: string, createFixture: () => Promise<CoordFixture>): void {
  describe(`${name} conforms to Coord`, () => {
    let fixture: CoordFixture;
    let coord: Coord;
    beforeEach(async () => {
      fixture = await createFixture();
      coord = fixture.coord;
    });
    afterEach(async () => {
      await fixture.dispose();
    });

    describe('counters', () => {
      it('adds 200 concurrent increments from two replicas atomically', async () => {
        const replica = fixture.replica();
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? coord : replica).incrementBy('hits', 1)),
        );
        expect([...results].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
        expect(await replica.getCounter('hits')).toBe(200);
      });

      it('reads 0 for absent counters and several counters in the order asked', async () => {
        await coord.incrementBy('a', 1);
        await coord.incrementBy('c', 3);
        expect(await coord.getCounter('missing')).toBe(0);
        expect(await coord.getCounters(['c', 'missing', 'a'])).toEqual([3, 0, 1]);
        expect(await coord.getCounters([])).toEqual([]);
      });

      it('adds negative and fractional deltas', async () => {
        await coord.incrementBy('spend', 5);
        expect(await coord.incrementBy('spend', -2)).toBe(3);
        expect(await coord.incrementBy('spend', 0.5)).toBe(3.5);
      });

      it('expires a counter ttlMs after creation, not after the latest increment', async () => {
        expect(await coord.incrementBy('monthly', 1, 300)).toBe(1);
        await fixture.elapse(150);
        expect(await coord.incrementBy('monthly', 1, 300)).toBe(2);
        await fixture.elapse(220);
        expect(await coord.getCounter('monthly')).toBe(0);
        expect(await coord.incrementBy('monthly', 1)).toBe(1);
      });

      it('gives a counter that has no expiry the ttl of a later increment', async () => {
        await coord.incrementBy('forever', 1);
        expect(await coord.incrementBy('forever', 1, 200)).toBe(2);
        await fixture.elapse(270);
        expect(await coord.getCounter('forever')).toBe(0);
      });

      it('adds several counters in one call as the same increments one by one would', async () => {
        await coord.incrementBy('kept', 2, 300);
        expect(
          await coord.incrementMany([
            { key: 'kept', delta: 1, ttlMs: 10_000 },
            { key: 'fresh', delta: 0.5, ttlMs: 300 },
            { key: 'endless', delta: 4 },
            { key: 'fresh', delta: 1 },
          ]),
        ).toEqual([3, 0.5, 4, 1.5]);
        expect(await coord.incrementMany([])).toEqual([]);
        await fixture.elapse(370);
        // "kept" keeps the expiry it was created with and "fresh" has its own; "endless" was given none.
        expect(await coord.getCounters(['kept', 'fresh', 'endless'])).toEqual([0, 0, 4]);
      });

      it('refuses a batch with a bad delta before any counter moves', async () => {
        await expect(
          coord.incrementMany([
            { key: 'first', delta: 1 },
            { key: 'second', delta: Number.NaN },
          ]),
        ).rejects.toThrow(RangeError);
        expect(await coord.getCounter('first')).toBe(0);
      });

      it('deletes a counter', async () => {
        await coord.incrementBy('gone', 4);
        await coord.delete('gone');
        expect(await coord.getCounter('gone')).toBe(0);
      });
    });

    describe('values', () => {
      it('reads a value until its ttl passes', async () => {
        await coord.setValue('pause', 'until-retry', 200);
        expect(await fixture.replica().getValue('pause')).toBe('until-retry');
        await fixture.elapse(270);
        expect(await coord.getValue('pause')).toBeNull();
      });

      it('overwrites a value and restarts its ttl', async () => {
        await coord.setValue('v', 'first', 400);
        await fixture.elapse(200);
        await coord.setValue('v', 'second', 400);
        await fixture.elapse(250);
        expect(await coord.getValue('v')).toBe('second');
        await coord.delete('v');
        expect(await coord.getValue('v')).toBeNull();
      });

      it('lets exactly one of 20 concurrent setIfAbsent callers win', async () => {
        const replica = fixture.replica();
        const outcomes = await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            (index % 2 === 0 ? coord : replica).setIfAbsent('nonce', `caller-${index}`, 5_000),
          ),
        );
        const winners = outcomes.flatMap((won, index) => (won ? [index] : []));
        expect(winners).toHaveLength(1);
        expect(await coord.getValue('nonce')).toBe(`caller-${winners[0]}`);
      });

      it('accepts setIfAbsent again once the earlier value expired', async () => {
        expect(await coord.setIfAbsent('claim', 'a', 200)).toBe(true);
        expect(await coord.setIfAbsent('claim', 'b', 200)).toBe(false);
        await fixture.elapse(270);
        expect(await coord.setIfAbsent('claim', 'c', 200)).toBe(true);
        expect(await coord.getValue('claim')).toBe('c');
      });

      it('rejects a ttl that is not a positive number', async () => {
        await expect(coord.setValue('bad', 'v', 0)).rejects.toThrow(RangeError);
        await expect(coord.setIfAbsent('bad', 'v', Number.NaN)).rejects.toThrow(RangeError);
      });
    });

    describe('rate limit', () => {
      it('admits exactly limit of a concurrent burst and denies the rest with a retry hint', async () => {
        const decisions = await Promise.all(Array.from({ length: 12 }, () => coord.rateLimit('user-1', 5, 10_000)));
        const admitted = decisions.filter((decision) => decision.allowed);
        const denied = decisions.filter((decision) => !decision.allowed);
        expect(admitted).toHaveLength(5);
        expect(admitted.map((decision) => decision.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
        expect(admitted.every((decision) => decision.retryAfterMs === 0)).toBe(true);
        expect(denied).toHaveLength(7);
        for (const decision of denied) {
          expect(decision.count).toBe(5);
          expect(decision.retryAfterMs).toBeGreaterThan(0);
          expect(decision.retryAfterMs).toBeLessThanOrEqual(10_000);
        }
      });

      it('admits again once the retry hint has passed', async () => {
        await coord.rateLimit('user-2', 2, 300);
        await coord.rateLimit('user-2', 2, 300);
        const denied = await coord.rateLimit('user-2', 2, 300);
        expect(denied.allowed).toBe(false);
        await fixture.elapse(denied.retryAfterMs + 50);
        expect((await coord.rateLimit('user-2', 2, 300)).allowed).toBe(true);
      });

      it('counts admissions on every replica against one limit, separately per key', async () => {
        const replica = fixture.replica();
        expect((await coord.rateLimit('team', 3, 10_000)).allowed).toBe(true);
        expect((await replica.rateLimit('team', 3, 10_000)).allowed).toBe(true);
        expect((await coord.rateLimit('team', 3, 10_000)).count).toBe(3);
        expect(await replica.rateLimit('team', 3, 10_000)).toMatchObject({ allowed: false, count: 3 });
        expect(await replica.rateLimit('other-team', 3, 10_000)).toEqual({ allowed: true, count: 1, retryAfterMs: 0 });
      });

      it('denies everything when the limit is 0', async () => {
        expect(await coord.rateLimit('blocked', 0, 1_000)).toEqual({ allowed: false, count: 0, retryAfterMs: 1_000 });
      });
    });

    describe('concurrency slots', () => {
      it('admits exactly limit concurrent holders', async () => {
        const replica = fixture.replica();
        const leases = await Promise.all(
          Array.from({ length: 8 }, (_, index) =>
            (index % 2 === 0 ? coord : replica).acquireSlot('streams', 3, 10_000),
          ),
        );
        expect(leases.filter((lease) => lease !== null)).toHaveLength(3);
      });

      it('frees a slot on release, and releasing twice frees it only once', async () => {
        const first = await coord.acquireSlot('user', 2, 10_000);
        expect(await coord.acquireSlot('user', 2, 10_000)).not.toBeNull();
        expect(await coord.acquireSlot('user', 2, 10_000)).toBeNull();
        await first?.release();
        await first?.release();
        expect(await coord.acquireSlot('user', 2, 10_000)).not.toBeNull();
        expect(await coord.acquireSlot('user', 2, 10_000)).toBeNull();
      });

      it('frees the slot of a lease that is not renewed once it expires', async () => {
        expect(await coord.acquireSlot('crashy', 1, 200)).not.toBeNull();
        expect(await coord.acquireSlot('crashy', 1, 200)).toBeNull();
        await fixture.elapse(270);
        expect(await fixture.replica().acquireSlot('crashy', 1, 200)).not.toBeNull();
      });

      it('keeps a renewed lease past its first expiry', async () => {
        const lease = (await coord.acquireSlot('long', 1, 300)) as SlotLease;
        await fixture.elapse(150);
        await lease.renew(5_000);
        await fixture.elapse(250);
        expect(await coord.acquireSlot('long', 1, 300)).toBeNull();
      });

      it('does not revive a lease renewed after it expired', async () => {
        const lease = (await coord.acquireSlot('late', 1, 200)) as SlotLease;
        await fixture.elapse(270);
        await lease.renew(5_000);
        expect(await coord.acquireSlot('late', 1, 200)).not.toBeNull();
      });
    });

    describe('pub/sub', () => {
      it('delivers a message to subscribers on every replica, the publisher included', async () => {
        const local = collector();
        const remote = collector();
        await coord.subscribe('revocations', local.listener);
        await fixture.replica().subscribe('revocations', remote.listener);
        await coord.publish('revocations', 'key-123');
        await Promise.all([local.received(1), remote.received(1)]);
        expect(local.messages).toEqual(['key-123']);
        expect(remote.messages).toEqual(['key-123']);
      });

      it('stops delivering to a listener after it unsubscribes', async () => {
        const leaving = collector();
        const staying = collector();
        const unsubscribe = await coord.subscribe('config', leaving.listener);
        await coord.subscribe('config', staying.listener);
        await fixture.replica().publish('config', 'first');
        await Promise.all([leaving.received(1), staying.received(1)]);
        await unsubscribe();
        await unsubscribe();
        await fixture.replica().publish('config', 'second');
        await staying.received(2);
        expect(leaving.messages).toEqual(['first']);
        expect(staying.messages).toEqual(['first', 'second']);
      });

      it('keeps channels apart and survives a listener that throws', async () => {
        const onA = collector();
        const onB = collector();
        await coord.subscribe('a', () => {
          throw new Error('listener bug');
        });
        await coord.subscribe('a', onA.listener);
        await coord.subscribe('b', onB.listener);
        await coord.publish('b', 'for-b');
        await coord.publish('a', 'for-a');
        await Promise.all([onA.received(1), onB.received(1)]);
        expect(onA.messages).toEqual(['for-a']);
        expect(onB.messages).toEqual(['for-b']);
      });
    });

    describe('lifecycle', () => {
      it('answers ping until closed, then rejects calls; close is idempotent', async () => {
        expect(await coord.ping()).toBe(true);
        await coord.close();
        await coord.close();
        expect(await coord.ping()).toBe(false);
        await expect(coord.incrementBy('after-close', 1)).rejects.toThrow();
      });
    });
  });
}

/** Collects messages; `received(n)` resolves once n have arrived and fails after two seconds otherwise. */
function collector() {
  const messages: string[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const settle = () => {
    for (const waiter of [...waiters]) {
      if (messages.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  return {
    messages,
    listener: (message: string) => {
      messages.push(message);
      settle();
    },
    received: (count: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} messages, got ${JSON.stringify(messages)}`)),
          2_000,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
        settle();
      }),
  };
}
