import { describe, expect, it } from 'vitest';
import type { ProfileSummary } from './categories.js';
import { formatInstructionsReport, toInstructionsReport } from './report.js';
import type { InstructionsRun } from './run-instructions.js';

const profile = (
  requests: number,
  mutator: number,
  gc: number,
  functions: Array<[string, number]>,
): { requests: number; errors: number; firstError: null; profile: ProfileSummary } => ({
  requests,
  errors: 0,
  firstError: null,
  profile: {
    total: (mutator + gc) * requests,
    byCategory: { mutator: mutator * requests, gc: gc * requests, compiler: 0 },
    functions: functions.map(([name, perRequest]) => ({
      name,
      category: 'mutator',
      instructions: perRequest * requests,
    })),
  },
});

const run: InstructionsRun = {
  options: {
    targets: ['bare-proxy', 'gateway'],
    warmupRequests: 300,
    requests: 100,
    connections: 50,
    top: 2,
    pgUrl: 'postgres://x/test',
    redisUrl: null,
    gatewayLogLevel: 'info',
    keepDir: null,
  },
  results: {
    'bare-proxy': {
      json: profile(100, 400_000, 20_000, [
        ['uv__io_poll', 30_000],
        ['JS:parse', 10_000],
        ['JS:near', 45],
      ]),
      sse: profile(100, 500_000, 0, [['uv__io_poll', 40_000]]),
    },
    gateway: {
      json: profile(100, 600_000, 100_000, [
        ['uv__io_poll', 31_000],
        ['JS:recordSpend', 20_000],
        ['JS:parse', 10_000],
        ['v8::internal::JsonStringify', 15_000],
        ['tiny', 10],
        ['JS:near', 60],
      ]),
      sse: profile(100, 700_000, 0, [['uv__io_poll', 40_000]]),
    },
  },
  node: 'v24.0.0',
  durationMs: 1_000,
};

describe('toInstructionsReport', () => {
  const report = toInstructionsReport(run);

  it('gives each target’s instructions per request by category and the gateway ÷ bare proxy ratios', () => {
    expect(report.results.gateway?.json.perRequest).toEqual({
      total: 700_000,
      mutator: 600_000,
      gc: 100_000,
      compiler: 0,
    });
    expect(report.ratios.gateway?.mutator).toEqual({ json: 1.5, sse: 1.4 });
    expect(report.ratios.gateway?.total.json).toBeCloseTo(700_000 / 420_000);
    expect(report.ratios['bare-proxy']).toBeUndefined();
  });

  it('keeps functions of 50 instructions per request and more', () => {
    expect(report.results.gateway?.json.functions.map((fn) => fn.name)).not.toContain('tiny');
  });

  it('subtracts the bare proxy’s cost before leaving out what is small', () => {
    expect(report.beyondBareProxy.gateway?.json).toEqual([
      { name: 'JS:recordSpend', category: 'mutator', perRequest: 20_000 },
      { name: 'v8::internal::JsonStringify', category: 'mutator', perRequest: 15_000 },
      { name: 'uv__io_poll', category: 'mutator', perRequest: 1_000 },
    ]);
  });
});

describe('formatInstructionsReport', () => {
  const lines = formatInstructionsReport(toInstructionsReport(run)).trimEnd().split('\n');

  it('prints the ratios and what the gateway spends beyond the bare proxy, largest first, --top of them', () => {
    expect(lines).toContain(
      'gateway (Postgres) ÷ bare proxy: mutator JSON 1.50× SSE 1.40×; total JSON 1.67× SSE 1.40×',
    );
    const excess = lines.indexOf(
      'gateway (Postgres), JSON: functions that cost more than in the bare proxy (self instructions per request)',
    );
    expect(lines.slice(excess + 1, excess + 4)).toEqual([
      '      20,000  mutator   JS:recordSpend',
      '      15,000  mutator   v8::internal::JsonStringify',
      '',
    ]);
    // The same cost in both (JS:parse) is not the gateway's.
    expect(lines.join('\n')).not.toMatch(/mutator\s+JS:parse/);
  });

  it('ends with the report as one JSON line', () => {
    expect(JSON.parse(lines.at(-1) ?? '')).toMatchObject({ benchmark: 'gateway-instructions', version: 1 });
  });
});
