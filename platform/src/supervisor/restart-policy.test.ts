import { describe, expect, it } from 'vitest';
import { RestartPolicy, type RestartDecision } from './restart-policy.js';

const options = { initialDelayMs: 500, maxDelayMs: 4_000, maxRestarts: 5, windowMs: 60_000, stableMs: 30_000 };

/** Exits as [started at, exited at] pairs, and the decision expected for each. */
function decisions(exits: Array<[number, number]>): RestartDecision[] {
  const policy = new RestartPolicy(options);
  return exits.map(([startedAt, exitedAt]) => policy.onExit(startedAt, exitedAt));
}

describe('the restart policy', () => {
  it('doubles the wait while the component keeps exiting, up to the longest wait', () => {
    expect(
      decisions([
        [0, 100],
        [1_000, 1_100],
        [3_000, 3_100],
        [6_000, 6_100],
        [10_000, 10_100],
      ]).map((decision) => decision.action === 'restart' && decision.delayMs),
    ).toEqual([500, 1_000, 2_000, 4_000, 4_000]);
  });

  it('gives up after the most restarts the window allows', () => {
    const exits: Array<[number, number]> = [0, 1, 2, 3, 4, 5].map((index) => [index * 5_000, index * 5_000 + 100]);
    expect(decisions(exits).map((decision) => decision.action)).toEqual([
      'restart',
      'restart',
      'restart',
      'restart',
      'restart',
      'give_up',
    ]);
    expect(decisions(exits).at(-1)).toEqual({ action: 'give_up', restartsInWindow: 5 });
  });

  it('forgets restarts older than the window', () => {
    const exits: Array<[number, number]> = [0, 1, 2, 3, 4].map((index) => [index * 5_000, index * 5_000 + 100]);
    exits.push([59_000, 61_000]);
    expect(decisions(exits).at(-1)).toMatchObject({ action: 'restart', restartsInWindow: 5 });
  });

  it('waits the shortest time again after a stable run', () => {
    expect(
      decisions([
        [0, 100],
        [1_000, 1_100],
        [3_000, 40_000],
      ]).map((decision) => decision.action === 'restart' && decision.delayMs),
    ).toEqual([500, 1_000, 500]);
  });
});
