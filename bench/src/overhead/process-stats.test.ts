import { describe, expect, it } from 'vitest';
import { canReadProcessStats, readProcessStats } from './process-stats.js';

describe('readProcessStats', () => {
  it.runIf(canReadProcessStats())('reads CPU that grows with work and a resident set of this process', () => {
    const before = readProcessStats(process.pid);
    let spin = 0;
    const until = Date.now() + 60;
    while (Date.now() < until) spin += Math.sqrt(spin + 1);
    const after = readProcessStats(process.pid);
    expect(after.cpuMicros).toBeGreaterThan(before.cpuMicros);
    expect(after.rssBytes).toBeGreaterThan(1024 * 1024);
  });
});
