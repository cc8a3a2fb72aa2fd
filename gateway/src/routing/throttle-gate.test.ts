import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, MemoryCoord, type Coord } from '@gw/platform';
import { coordWith } from '@gw/testkit';
import { ThrottleGate, type ThrottleDecision } from './throttle-gate.js';

const maxWaitMs = 60_000;
// Memory Coord delivers pub/sub and answers reads in microtasks: one macrotask later every one has run.
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A Coord that counts the reads the gates make, so a test can tell the request path never waits on one. */
function countingReads(coord: Coord): { coord: Coord; reads: () => number } {
  let reads = 0;
  const getValue = (key: string) => {
    reads += 1;
    return coord.getValue(key);
  };
  return { coord: coordWith(coord, { getValue }), reads: () => reads };
}

describe('the throttle pause every replica keeps', () => {
  const started: ThrottleGate[] = [];
  const replica = async (coord: Coord, clock: ManualClock) => {
    const gate = new ThrottleGate(coord, clock, maxWaitMs);
    await gate.start();
    started.push(gate);
    return gate;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((gate) => gate.stop()));
  });

  it.each<[string, Array<number | null>, number, ThrottleDecision]>([
    ['no 429 yet', [], 0, { kind: 'go' }],
    ['a 429 without a retry hint', [null], 0, { kind: 'go' }],
    ['a short pause, just after it began', [5_000], 1_000, { kind: 'wait', waitMs: 4_000 }],
    ['a pause longer than the allowed wait', [120_000], 0, { kind: 'refuse', retryAfterMs: 120_000 }],
    ['a pause that has ended', [5_000], 5_000, { kind: 'go' }],
  ])('answers %s', async (_case, retryHints, elapsedMs, decision) => {
    const clock = new ManualClock();
    const gate = await replica(new MemoryCoord({ clock }), clock);
    for (const retryAfterMs of retryHints) gate.throttled('openai', retryAfterMs);
    clock.advance(elapsedMs);
    expect(gate.check('openai')).toEqual(decision);
    expect(gate.check('anthropic')).toEqual({ kind: 'go' });
  });

  it("hears another replica's pause, and the later of two pauses wins", async () => {
    const clock = new ManualClock();
    const coord = new MemoryCoord({ clock });
    const [first, second] = [await replica(coord, clock), await replica(coord, clock)];
    second.throttled('seat-a', 10_000);
    await settle();
    expect(first.check('seat-a')).toEqual({ kind: 'wait', waitMs: 10_000 });
    first.throttled('seat-a', 2_000);
    await settle();
    expect(second.check('seat-a')).toEqual({ kind: 'wait', waitMs: 10_000 });
  });

  it('learns a pause it never heard from Coord, off the request path, at most once a second per seat', async () => {
    const clock = new ManualClock();
    const shared = new MemoryCoord({ clock });
    const { coord, reads } = countingReads(shared);
    const gate = await replica(coord, clock);
    // Stored by a replica whose message this one missed (pub/sub is at-most-once).
    await shared.setValue('throttle:seat-b', String(clock.now() + 30_000), 30_000);

    expect(gate.check('seat-b')).toEqual({ kind: 'go' });
    await settle();
    expect(gate.check('seat-b')).toEqual({ kind: 'wait', waitMs: 30_000 });
    for (let call = 0; call < 100; call += 1) gate.check('seat-b');
    expect(reads()).toBe(1);

    clock.advance(1_000);
    gate.check('seat-b');
    expect(reads()).toBe(2);
  });

  it('lets traffic through when Coord is down, and still pauses on its own 429s', async () => {
    const clock = new ManualClock();
    const unreachable = () => Promise.reject(new Error('coord unreachable'));
    const down = coordWith(new MemoryCoord({ clock }), {
      getValue: unreachable,
      setValue: unreachable,
      publish: unreachable,
    });
    const gate = await replica(down, clock);
    expect(gate.check('openai')).toEqual({ kind: 'go' });
    gate.throttled('openai', 3_000);
    await settle();
    expect(gate.check('openai')).toEqual({ kind: 'wait', waitMs: 3_000 });
  });

  it('ignores what it cannot read on the pause channel', async () => {
    const clock = new ManualClock();
    const coord = new MemoryCoord({ clock });
    const gate = await replica(coord, clock);
    for (const message of ['not json', 'null', '{"seat":"openai"}', '{"seat":"openai","retryAfterMs":"9"}'])
      await coord.publish('throttle:paused', message);
    await settle();
    expect(gate.check('openai')).toEqual({ kind: 'go' });
  });

  it('no longer hears other replicas once stopped', async () => {
    const clock = new ManualClock();
    const coord = new MemoryCoord({ clock });
    const [first, second] = [await replica(coord, clock), await replica(coord, clock)];
    await first.stop();
    second.throttled('seat-c', 10_000);
    await settle();
    expect(first.check('seat-c')).toEqual({ kind: 'go' });
  });
});
