import { describe, expect, it } from 'vitest';
import { ManualClock } from '@gw/platform';
import { GuardLane, type LaneTransition } from './guard-lane.js';
import { defaultGuardThresholds, resolveGuardThresholds, type GuardThresholds } from './guard-thresholds.js';

const minute = 60_000;

function harness(thresholds: GuardThresholds = defaultGuardThresholds) {
  const clock = new ManualClock();
  const transitions: LaneTransition[] = [];
  const lane = new GuardLane('acme', 'elide_tool_output', (transition) => transitions.push(transition));
  return {
    clock,
    lane,
    transitions,
    fire: (count: number, probe = false) => {
      for (let index = 0; index < count; index += 1) lane.fire(clock.now(), probe, thresholds);
    },
    regret: (count: number, firedAt = clock.now()) => {
      for (let index = 0; index < count; index += 1) lane.regret(clock.now(), firedAt, thresholds);
    },
    state: () => lane.snapshot(clock.now(), thresholds).state,
    snapshot: () => lane.snapshot(clock.now(), thresholds),
  };
}

/** Opens a lane by the window test and returns the harness at the moment it opened. */
function opened(thresholds: GuardThresholds = defaultGuardThresholds) {
  const h = harness(thresholds);
  h.fire(50);
  h.regret(10);
  expect(h.state()).toBe('open');
  return h;
}

/** Runs an open lane to half-open and a relapse: two probe regrets at or above the rate. */
function relapse(h: ReturnType<typeof harness>): void {
  h.fire(4, true);
  h.regret(2);
}

describe('GuardLane closed → open', () => {
  it('opens at 50 fired and 10 regrets (20%) in the window, not at 9', () => {
    const h = harness();
    h.fire(50);
    h.regret(9);
    expect(h.state()).toBe('closed');
    h.regret(1);
    expect(h.snapshot()).toMatchObject({ state: 'open', reason: 'window', regretRate: 0.2 });
    expect(h.transitions).toEqual([
      { tenant: 'acme', kind: 'elide_tool_output', from: 'closed', to: 'open', reason: 'window', at: h.clock.now() },
    ]);
  });

  it('stays closed below the 20% rate even with many regrets', () => {
    const h = harness();
    h.fire(61);
    h.regret(11);
    expect(h.snapshot()).toMatchObject({ state: 'closed', fired: 61, regrets: 11 });
  });

  it('opens a 20–49 fired lane only when the binomial test at 20% gives p ≤ 0.01', () => {
    const quiet = harness();
    quiet.fire(30);
    quiet.regret(11); // p = 0.0256
    expect(quiet.state()).toBe('closed');
    quiet.regret(1); // 12 of 30: p = 0.0095
    expect(quiet.snapshot()).toMatchObject({ state: 'open', reason: 'low_traffic' });
  });

  it('never runs the low-traffic test under 20 fired', () => {
    const h = harness();
    h.fire(19);
    h.regret(15);
    expect(h.state()).toBe('closed');
  });

  it('forgets fires that slid out of the 30-minute window', () => {
    const h = harness();
    h.fire(50);
    h.clock.advance(31 * minute);
    h.regret(10);
    expect(h.snapshot()).toMatchObject({ state: 'closed', fired: 0, regrets: 10 });
  });

  it('opens on the accumulated score when no single window is busy enough', () => {
    const h = harness();
    // 6 fires and 2 regrets every 10 minutes (33%): 18 fired per window, never enough for a window test.
    let steps = 0;
    while (steps < 60) {
      h.fire(6);
      h.regret(2);
      steps += 1;
      if (h.state() !== 'closed') break;
      expect(h.snapshot().fired).toBeLessThan(20);
      h.clock.advance(10 * minute);
    }
    expect(h.snapshot()).toMatchObject({ state: 'open', reason: 'score' });
    // It took the decayed trials past 50: about three and a half hours of evidence.
    expect(steps).toBe(21);
  });

  it('drains the score while the lane behaves at or below the rate', () => {
    const h = harness();
    for (let step = 0; step < 36; step += 1) {
      h.fire(6);
      h.regret(step % 5 === 0 ? 2 : 1); // about 18%
      h.clock.advance(10 * minute);
    }
    expect(h.state()).toBe('closed');
  });
});

describe('GuardLane open → half-open → closed', () => {
  it('turns half-open when the 10-minute cool-off elapses, not before', () => {
    const h = opened();
    const openedAt = h.clock.now();
    expect(h.snapshot().reopensAt).toBe(openedAt + 10 * minute);
    h.clock.advance(10 * minute - 1);
    expect(h.state()).toBe('open');
    h.clock.advance(1);
    expect(h.state()).toBe('half_open');
    expect(h.transitions.at(-1)).toMatchObject({
      from: 'open',
      to: 'half_open',
      reason: 'cool_off',
      at: openedAt + 10 * minute,
    });
  });

  it('ignores regrets while open: they answer rewrites made before the suppression', () => {
    const h = opened();
    h.regret(30);
    h.clock.advance(10 * minute);
    expect(h.state()).toBe('half_open');
  });

  it('closes after 20 clean probe fires over one probe-cohort rotation', () => {
    const h = opened();
    h.clock.advance(10 * minute);
    h.fire(20, true);
    // Non-probe fires never count towards restoring.
    h.fire(50, false);
    h.clock.advance(10 * minute - 1);
    expect(h.state()).toBe('half_open');
    h.clock.advance(1);
    expect(h.state()).toBe('closed');
    expect(h.transitions.at(-1)).toMatchObject({ from: 'half_open', to: 'closed', reason: 'probes_clean' });
  });

  it('does not close a rotation with fewer than 20 probes or one stray regret', () => {
    const h = opened();
    h.clock.advance(10 * minute);
    h.fire(19, true);
    h.clock.advance(10 * minute);
    expect(h.state()).toBe('half_open');
    h.fire(25, true);
    h.regret(1); // 1 in 25: not clean, not a confirmed relapse
    h.clock.advance(10 * minute);
    expect(h.state()).toBe('half_open');
    h.fire(20, true);
    h.clock.advance(10 * minute);
    expect(h.state()).toBe('closed');
  });

  it('closes a lane too quiet for 20 probes after an hour entirely clean', () => {
    const h = opened();
    h.clock.advance(10 * minute);
    h.fire(3, true);
    h.clock.advance(50 * minute);
    expect(h.state()).toBe('half_open');
    h.clock.advance(10 * minute);
    expect(h.state()).toBe('closed');
    expect(h.transitions.at(-1)).toMatchObject({ to: 'closed', reason: 'quiet' });
  });

  it('does not count a regret of a rewrite made before it turned half-open', () => {
    const h = opened();
    const beforeSuppression = h.clock.now();
    h.clock.advance(10 * minute);
    h.fire(2, true);
    h.regret(5, beforeSuppression);
    expect(h.state()).toBe('half_open');
  });
});

describe('GuardLane relapses', () => {
  it('reopens on confirmed probe regrets with the cool-off doubling, never past the window', () => {
    const h = opened();
    const coolOffs: number[] = [10 * minute];
    for (let round = 0; round < 3; round += 1) {
      h.clock.advance(coolOffs.at(-1) ?? 0);
      expect(h.state()).toBe('half_open');
      relapse(h);
      const snapshot = h.snapshot();
      expect(snapshot).toMatchObject({ state: 'open', reason: 'relapse', relapses: round + 1 });
      coolOffs.push((snapshot.reopensAt ?? 0) - h.clock.now());
    }
    // 10, then 20, then 40 capped by the 30-minute rolling window.
    expect(coolOffs).toEqual([10, 20, 30, 30].map((minutes) => minutes * minute));
  });

  it('caps the doubling at 4× when the window allows it', () => {
    const h = opened(resolveGuardThresholds({ windowMinutes: 120 }));
    const coolOffs: number[] = [10 * minute];
    for (let round = 0; round < 3; round += 1) {
      h.clock.advance(coolOffs.at(-1) ?? 0);
      relapse(h);
      coolOffs.push((h.snapshot().reopensAt ?? 0) - h.clock.now());
    }
    expect(coolOffs).toEqual([10, 20, 40, 40].map((minutes) => minutes * minute));
  });

  it('resets the doubling on the first clean recovery', () => {
    const h = opened();
    h.clock.advance(10 * minute);
    relapse(h);
    h.clock.advance(20 * minute);
    h.fire(20, true);
    h.clock.advance(10 * minute);
    expect(h.snapshot()).toMatchObject({ state: 'closed', relapses: 0 });
    h.fire(50);
    h.regret(10);
    const snapshot = h.snapshot();
    expect(snapshot.state).toBe('open');
    expect((snapshot.reopensAt ?? 0) - h.clock.now()).toBe(10 * minute);
  });
});

describe('probe cohorts', () => {
  it('rotates through every cohort once per rotation', () => {
    const h = opened();
    h.clock.advance(10 * minute);
    const cohorts: number[] = [];
    for (let step = 0; step < 10; step += 1) {
      cohorts.push(h.lane.probeCohort(h.clock.now(), defaultGuardThresholds));
      h.clock.advance(minute);
    }
    expect(cohorts).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
