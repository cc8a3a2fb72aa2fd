import { compare, type GatewayComparisons } from './comparisons.js';
import type { PhaseId } from './phases.js';
import type { OverheadRun } from './run-overhead.js';
import type { PhaseSummary } from './summary.js';
import { TARGET_LABELS, type TargetId } from './targets.js';
import { overheadTargets } from './comparisons.js';
import { table, times } from '../text-table.js';

/** The machine-readable result: the last line the benchmark prints. */
export interface OverheadReport {
  benchmark: 'gateway-overhead';
  version: 1;
  options: OverheadRun['options'];
  targets: TargetId[];
  skipped: OverheadRun['skipped'];
  results: OverheadRun['results'];
  comparisons: Partial<Record<TargetId, GatewayComparisons>>;
  machine: OverheadRun['machine'];
  durationMs: number;
}

export function toReport(run: OverheadRun): OverheadReport {
  return {
    benchmark: 'gateway-overhead',
    version: 1,
    options: run.options,
    targets: run.targets,
    skipped: run.skipped,
    results: run.results,
    comparisons: compare(run),
    machine: run.machine,
    durationMs: run.durationMs,
  };
}

/** Tables and ratios for people, then the JSON object alone on the last line. */
export function formatReport(report: OverheadReport): string {
  const { options } = report;
  const rows = (columns: (summary: (phase: PhaseId) => PhaseSummary) => string[]) =>
    report.targets.map((id) => {
      const results = report.results[id];
      return [TARGET_LABELS[id], ...(results ? columns((phase) => results[phase]) : [])];
    });
  const errors = (summary: (phase: PhaseId) => PhaseSummary, phases: PhaseId[]) =>
    String(phases.reduce((total, phase) => total + summary(phase).errors, 0));
  const lines = [
    `gateway overhead: ${options.rounds} round(s), ${options.phaseMs} ms per loaded phase, ${options.serialRequests} one-at-a-time requests per round, targets ${report.targets.join(', ')}${options.redisUrl ? '; the Postgres gateway coordinates through Redis' : ''}`,
    `machine: ${report.machine.cpus} CPUs, Node ${report.machine.node}, load average ${report.machine.loadAverageBefore.join(' ')} before, ${report.machine.loadAverageAfter.join(' ')} after (other load skews absolute figures; the interleaved ratios hold up better)`,
    ...report.skipped.map((skip) => `skipped ${skip.id}: ${skip.reason}`),
    '',
    `Saturation: closed loop, ${options.connections} connections (latency ms, server CPU µs per request, RSS after load)`,
    table(
      [
        'target',
        'JSON req/s',
        'p50',
        'p99',
        'CPU µs/req',
        'SSE req/s',
        'p50',
        'p99',
        'CPU µs/req',
        'RSS MiB',
        'errors',
      ],
      rows((at) => [
        ...loaded(at('closed-json')),
        ...loaded(at('closed-sse')),
        fixed(Math.max(at('closed-json').rssMiB, at('closed-sse').rssMiB), 0),
        errors(at, ['closed-json', 'closed-sse']),
      ]),
    ),
    '',
    `Fixed offered load: ${options.rate} req/s, open loop (ms)`,
    table(
      ['target', 'JSON p50', 'p99', 'CPU µs/req', 'SSE p50', 'p99', 'CPU µs/req', 'errors'],
      rows((at) => [...rated(at('open-json')), ...rated(at('open-sse')), errors(at, ['open-json', 'open-sse'])]),
    ),
    '',
    'One at a time (ms; the stream is paced, so first byte and end differ)',
    table(
      ['target', 'JSON p50', 'p99', 'SSE first byte p50', 'p99', 'SSE end p50', 'errors'],
      rows((at) => [
        fixed(at('serial-json').p50Ms, 2),
        fixed(at('serial-json').p99Ms, 2),
        fixed(at('serial-sse').ttfbP50Ms, 2),
        fixed(at('serial-sse').ttfbP99Ms, 2),
        fixed(at('serial-sse').p50Ms, 2),
        errors(at, ['serial-json', 'serial-sse']),
      ]),
    ),
    '',
    ...Object.entries(report.comparisons).flatMap(([id, comparison]) =>
      describeComparison(id as TargetId, comparison, options.rate),
    ),
    ...storeCpu(report),
    ...firstErrors(report),
    JSON.stringify(report),
  ];
  return `${lines.join('\n')}\n`;
}

const loaded = (summary: PhaseSummary) => [
  fixed(summary.throughputRps, 0),
  fixed(summary.p50Ms, 2),
  fixed(summary.p99Ms, 2),
  fixed(summary.cpuMicrosPerRequest, 0),
];
const rated = (summary: PhaseSummary) => [
  fixed(summary.p50Ms, 2),
  fixed(summary.p99Ms, 2),
  fixed(summary.cpuMicrosPerRequest, 0),
];

function describeComparison(id: TargetId, comparison: GatewayComparisons | undefined, rate: number): string[] {
  if (!comparison) return [];
  const { vsBareProxy: bare, vsPortkey: portkey, fiveTimesPortkeyVsBareProxy: bound, targets } = comparison;
  const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const lines = [
    `${TARGET_LABELS[id]} / bare proxy: throughput JSON ${times(bare.throughputRatio.json)} SSE ${times(bare.throughputRatio.sse)}; CPU per request JSON ${times(bare.cpuPerRequestRatio.json)} SSE ${times(bare.cpuPerRequestRatio.sse)}; added p50 at ${rate} req/s JSON ${signed(bare.p50DifferenceMsAtRate.json)} SSE ${signed(bare.p50DifferenceMsAtRate.sse)}; added p99 JSON ${signed(bare.p99DifferenceMsAtRate.json)} SSE ${signed(bare.p99DifferenceMsAtRate.sse)}; stream first byte ${signed(bare.ttfbDifferenceMs)}`,
  ];
  if (portkey) {
    lines.push(
      `${TARGET_LABELS[id]} / Portkey: throughput JSON ${times(portkey.throughputRatio.json)} SSE ${times(portkey.throughputRatio.sse)}; CPU per request JSON ${times(portkey.cpuPerRequestRatio.json)} SSE ${times(portkey.cpuPerRequestRatio.sse)}; p50 at ${rate} req/s JSON ${signed(portkey.p50DifferenceMsAtRate.json)} SSE ${signed(portkey.p50DifferenceMsAtRate.sse)}; stream first byte ${signed(portkey.ttfbDifferenceMs)}`,
    );
    if (bound)
      lines.push(
        `  5× Portkey in this run is JSON ${times(bound.json)} SSE ${times(bound.sse)} the bare proxy's throughput (above 1×, out of reach for any proxy that does more than the baseline)`,
      );
  }
  const throughputTarget =
    id === 'gateway-pglite'
      ? overheadTargets.throughputRatio['gateway-pglite']
      : overheadTargets.throughputRatio.gateway;
  const checks = [`throughput ≥ ${throughputTarget}× bare proxy ${mark(targets.throughput)}`];
  if (targets.cpuPerRequest !== null)
    checks.push(`CPU per request ≤ ${overheadTargets.cpuPerRequestRatio}× ${mark(targets.cpuPerRequest)}`);
  if (targets.addedP99AtRate !== null)
    checks.push(`added p99 at ${rate} req/s ≤ ${overheadTargets.addedP99Ms} ms ${mark(targets.addedP99AtRate)}`);
  if (targets.streamFirstByte !== null)
    checks.push(`stream first byte within ${overheadTargets.firstByteMs} ms ${mark(targets.streamFirstByte)}`);
  lines.push(`  targets: ${checks.join('; ')}`, '');
  return lines;
}

/** The local Postgres server's CPU beside a gateway's own: part of why throughput trails the CPU ratio. */
function storeCpu(report: OverheadReport): string[] {
  const lines: string[] = [];
  for (const id of report.targets) {
    const json = report.results[id]?.['closed-json'].storeCpuMicrosPerRequest;
    const sse = report.results[id]?.['closed-sse'].storeCpuMicrosPerRequest;
    if (json === null || json === undefined || sse === null || sse === undefined) continue;
    lines.push(
      `${TARGET_LABELS[id]}: the local Postgres server's CPU per request under the closed loop JSON ${fixed(json, 1)} µs SSE ${fixed(sse, 1)} µs (every postgres process, so other databases' work too; on the same cores as the gateway, so in the throughput ratio but not in the CPU ratio)`,
      '',
    );
  }
  return lines;
}

function firstErrors(report: OverheadReport): string[] {
  const lines: string[] = [];
  for (const id of report.targets) {
    for (const [phase, summary] of Object.entries(report.results[id] ?? {})) {
      if (summary.errors > 0)
        lines.push(
          `errors: ${TARGET_LABELS[id]} ${phase}: ${summary.errors} of ${summary.requests}, first: ${summary.firstError ?? '?'}`,
        );
    }
  }
  return lines.length > 0 ? [...lines, ''] : [];
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const signed = (value: number) => (Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(2)} ms` : '-');
