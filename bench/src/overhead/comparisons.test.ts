import { describe, expect, it } from 'vitest';
import { compare } from './comparisons.js';
import type { PhaseId } from './phases.js';
import type { OverheadRun } from './run-overhead.js';
import type { PhaseSummary } from './summary.js';

const summary = (fields: Partial<PhaseSummary>): PhaseSummary => ({
  requests: 100,
  errors: 0,
  firstError: null,
  throughputRps: 1000,
  roundRps: [1000],
  p50Ms: 1,
  p99Ms: 2,
  ttfbP50Ms: 1,
  ttfbP99Ms: 2,
  cpuMicrosPerRequest: 100,
  clientCpuMicrosPerRequest: 50,
  rssMiB: 100,
  storeCpuMicrosPerRequest: null,
  ...fields,
});

function results(
  closed: Partial<PhaseSummary>,
  open: Partial<PhaseSummary>,
  serialSse: Partial<PhaseSummary>,
): Record<PhaseId, PhaseSummary> {
  return {
    'closed-json': summary(closed),
    'closed-sse': summary(closed),
    'open-json': summary(open),
    'open-sse': summary(open),
    'serial-json': summary({}),
    'serial-sse': summary(serialSse),
  };
}

const run = (withPortkey: boolean): OverheadRun => ({
  options: {} as OverheadRun['options'],
  targets: ['bare-proxy', 'gateway', ...(withPortkey ? (['portkey'] as const) : [])],
  skipped: [],
  machine: { cpus: 2, node: 'v24', loadAverageBefore: [], loadAverageAfter: [] },
  durationMs: 1,
  results: {
    'bare-proxy': results({ throughputRps: 10_000, cpuMicrosPerRequest: 50 }, { p50Ms: 1 }, { ttfbP50Ms: 1 }),
    gateway: results({ throughputRps: 6_000, cpuMicrosPerRequest: 150 }, { p50Ms: 1.5 }, { ttfbP50Ms: 1.4 }),
    ...(withPortkey
      ? { portkey: results({ throughputRps: 1_000, cpuMicrosPerRequest: 800 }, { p50Ms: 3 }, { ttfbP50Ms: 29.4 }) }
      : {}),
  },
});

describe('compare', () => {
  it('divides throughput and CPU by the bare proxy, subtracts latencies, and checks the targets', () => {
    const gateway = compare(run(true)).gateway;
    expect(gateway?.vsBareProxy).toEqual({
      throughputRatio: { json: 0.6, sse: 0.6 },
      cpuPerRequestRatio: { json: 3, sse: 3 },
      p50DifferenceMsAtRate: { json: 0.5, sse: 0.5 },
      p99DifferenceMsAtRate: { json: 0, sse: 0 },
      ttfbDifferenceMs: 0.4,
    });
    expect(gateway?.vsPortkey).toMatchObject({ throughputRatio: { json: 6, sse: 6 }, ttfbDifferenceMs: -28 });
    // 0.6× throughput and 3× CPU miss; p99 and first byte are within their bounds. Portkey is no target.
    expect(gateway?.targets).toEqual({
      throughput: false,
      cpuPerRequest: false,
      addedP99AtRate: true,
      streamFirstByte: true,
    });
    // 5 × 1,000 req/s of Portkey against 10,000 of the bare proxy: half of the baseline (reported, no longer a target).
    expect(gateway?.fiveTimesPortkeyVsBareProxy).toEqual({ json: 0.5, sse: 0.5 });
  });

  it('leaves the Portkey comparison out when the peer was not measured', () => {
    const gateway = compare(run(false)).gateway;
    expect(gateway?.vsPortkey).toBeNull();
    expect(gateway?.fiveTimesPortkeyVsBareProxy).toBeNull();
  });

  it('holds the embedded store to its throughput target only', () => {
    const measured = run(false);
    measured.targets.push('gateway-pglite');
    measured.results['gateway-pglite'] = results(
      { throughputRps: 5_000, cpuMicrosPerRequest: 300 },
      { p50Ms: 9, p99Ms: 40 },
      { ttfbP50Ms: 9 },
    );
    expect(compare(measured)['gateway-pglite']?.targets).toEqual({
      throughput: true,
      cpuPerRequest: null,
      addedP99AtRate: null,
      streamFirstByte: null,
    });
  });
});
