import { describe, expect, it } from 'vitest';
import type { InstructionsReport } from '../src/instructions/report.js';
import { runBench } from './run-bench.js';

// Real processes under valgrind's callgrind (CI installs valgrind). Instruction counts depend on the machine and the
// JIT's state, so none is asserted: only that each target was counted in each format and the report reads.
describe('npm run bench -- instructions --tiny', () => {
  it('counts the bare proxy and the gateway per request, by category, and lists what the gateway spends beyond it', async () => {
    const { code, stdout, stderr } = await runBench(['instructions', '--tiny'], 590_000);
    expect(code, stderr).toBe(0);

    const lines = stdout.trimEnd().split('\n');
    const report = JSON.parse(lines.at(-1) ?? '') as InstructionsReport;
    expect(report.benchmark).toBe('gateway-instructions');
    expect(report.options).toMatchObject({ targets: ['bare-proxy', 'gateway'], warmupRequests: 300, requests: 100 });
    for (const target of ['bare-proxy', 'gateway'] as const) {
      for (const format of ['json', 'sse'] as const) {
        const counted = report.results[target]?.[format];
        expect(counted?.requests, `${target} ${format}`).toBe(100);
        const perRequest = counted?.perRequest;
        expect(perRequest?.mutator, `${target} ${format}`).toBeGreaterThan(10_000);
        expect(perRequest?.total).toBe(
          (perRequest?.mutator ?? 0) + (perRequest?.gc ?? 0) + (perRequest?.compiler ?? 0),
        );
        expect(counted?.functions.length).toBeGreaterThan(10);
      }
    }
    expect(report.ratios.gateway?.mutator.json).toBeGreaterThan(0);
    expect(Number.isFinite(report.ratios.gateway?.total.sse)).toBe(true);

    expect(stdout).toMatch(/gateway \(Postgres\) ÷ bare proxy: mutator JSON [\d.]+× SSE [\d.]+×/);
    expect(stdout).toContain(
      'gateway (Postgres), SSE: functions that cost more than in the bare proxy (self instructions per request)',
    );
  }, 600_000);
});
