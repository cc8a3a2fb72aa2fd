import { afterEach, describe, expect, it, vi } from 'vitest';
import { Rounds } from './rounds.js';

function gatedRound() {
  let calls = 0;
  let release: () => void = () => undefined;
  const round = () => {
    calls += 1;
    return new Promise<void>((resolve) => {
      release = resolve;
    });
  };
  return { round, calls: () => calls, release: () => release() };
}

describe('Rounds', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs one round at a time: a call while one runs joins it', async () => {
    const job = gatedRound();
    const rounds = new Rounds(job.round, () => 1_000);
    const first = rounds.runOnce();
    const joined = rounds.runOnce();
    expect(joined).toBe(first);
    expect(job.calls()).toBe(1);
    job.release();
    await first;
    void rounds.runOnce();
    expect(job.calls()).toBe(2);
    job.release();
  });

  it('schedules the next round after the delay the owner gives, and stops scheduling once stopped', async () => {
    vi.useFakeTimers();
    const delays = [500, 2_000];
    let ran = 0;
    const rounds = new Rounds(
      () => {
        ran += 1;
        return Promise.resolve();
      },
      () => delays.shift() ?? 10_000,
    );
    rounds.schedule();
    await vi.advanceTimersByTimeAsync(499);
    expect(ran).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(ran).toBe(2);
    await rounds.stop();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(ran).toBe(2);
  });

  it('stop waits for the round in flight', async () => {
    const job = gatedRound();
    const rounds = new Rounds(job.round, () => 1_000);
    void rounds.runOnce();
    let stopped = false;
    const stopping = rounds.stop().then(() => {
      stopped = true;
    });
    await Promise.resolve();
    expect(stopped).toBe(false);
    job.release();
    await stopping;
    expect(stopped).toBe(true);
  });
});
