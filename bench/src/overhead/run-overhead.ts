import { cpus, loadavg } from 'node:os';
import type { LoadResult } from '../load/load-job.js';
import { mergeSamples } from '../load/samples.js';
import { startGatewayTarget } from './gateway-target.js';
import { LoadClient } from './load-client.js';
import { PHASES, jobFor, type Phase, type PhaseId, type PhaseLimits } from './phases.js';
import { findPortkey, startPortkeyTarget } from './portkey-target.js';
import { readCommandCpuMicros, readProcessStats } from './process-stats.js';
import { summarise, type PhaseSummary } from './summary.js';
import { startBareProxyTarget, startSimulatorTarget, type Target, type TargetId } from './targets.js';

export interface OverheadOptions extends PhaseLimits {
  rounds: number;
  /** Discarded load per target before the first round (JIT warm-up, connection pools filled). */
  warmupMs: number;
  portkey: boolean;
  pglite: boolean;
  pgUrl: string;
  /** Redis for the Postgres gateway's coordination (`GW_REDIS_URL`); null: in-process, as one replica. */
  redisUrl: string | null;
  gatewayLogLevel: string;
  /** Extra Node flags for the gateway processes (profiling). */
  gatewayNodeArgs: readonly string[];
  environment: Record<string, string | undefined>;
  progress: (line: string) => void;
}

export interface OverheadRun {
  options: Omit<OverheadOptions, 'environment' | 'progress'>;
  targets: TargetId[];
  /** Targets asked for but not measured, and why. */
  skipped: Array<{ id: TargetId; reason: string }>;
  results: Partial<Record<TargetId, Record<PhaseId, PhaseSummary>>>;
  /** The measurement is only as quiet as the machine: other load shows in the load averages. */
  machine: { cpus: number; node: string; loadAverageBefore: number[]; loadAverageAfter: number[] };
  durationMs: number;
}

interface Accumulator {
  runs: LoadResult[];
  cpuMicros: number;
  clientCpuMicros: number;
  rssBytes: number;
  storeCpuMicros: number | null;
}

/**
 * Starts every target as its own process, then runs each phase against each target in turn, round after round
 * (a, b, c, d, a, b, c, d …), so machine noise falls on all alike. CPU and RSS come from /proc per target process.
 */
export async function runOverhead(options: OverheadOptions): Promise<OverheadRun> {
  const startedAt = Date.now();
  const loadAverageBefore = loadavg();
  const targets: Target[] = [];
  const skipped: OverheadRun['skipped'] = [];
  const load = LoadClient.start();
  try {
    await startTargets(options, targets, skipped);
    const accumulators = new Map<string, Accumulator>();
    options.progress(`warming up ${targets.map((target) => target.id).join(', ')}`);
    for (const target of targets) await warmUp(load, target, options);
    for (let round = 1; round <= options.rounds; round += 1) {
      for (const phase of PHASES) {
        options.progress(`round ${round}/${options.rounds}: ${phase.id}`);
        for (const target of targets) await measure(load, target, phase, options, accumulators);
      }
    }
    const results: OverheadRun['results'] = {};
    for (const target of targets) {
      results[target.id] = Object.fromEntries(
        PHASES.map((phase) => [phase.id, summariseAccumulator(accumulators.get(key(target, phase)))]),
      ) as Record<PhaseId, PhaseSummary>;
    }
    const { environment: _environment, progress: _progress, ...recorded } = options;
    const machine = {
      cpus: cpus().length,
      node: process.version,
      loadAverageBefore: roundAll(loadAverageBefore),
      loadAverageAfter: roundAll(loadavg()),
    };
    return {
      options: recorded,
      targets: targets.map((target) => target.id),
      skipped,
      results,
      machine,
      durationMs: Date.now() - startedAt,
    };
  } finally {
    await load.stop();
    for (const target of targets.reverse()) {
      await target.process.stop();
      await target.dispose();
    }
  }
}

async function startTargets(
  options: OverheadOptions,
  targets: Target[],
  skipped: OverheadRun['skipped'],
): Promise<void> {
  const simulator = await startSimulatorTarget();
  targets.push(simulator);
  targets.push(await startBareProxyTarget(simulator.origin));
  const gatewayOptions = {
    upstream: simulator.origin,
    pgUrl: options.pgUrl,
    logLevel: options.gatewayLogLevel,
    nodeArgs: options.gatewayNodeArgs,
  };
  targets.push(await startGatewayTarget({ ...gatewayOptions, store: 'postgres', redisUrl: options.redisUrl }));
  // The embedded store is one replica's: it keeps in-process coordination.
  if (options.pglite) targets.push(await startGatewayTarget({ ...gatewayOptions, store: 'pglite', redisUrl: null }));
  if (!options.portkey) return;
  const portkeyDir = findPortkey(options.environment);
  if (!portkeyDir) {
    skipped.push({
      id: 'portkey',
      reason: '@portkey-ai/gateway is not installed (devDependency of bench/, or set GW_BENCH_PORTKEY_DIR)',
    });
    return;
  }
  try {
    targets.push(await startPortkeyTarget(portkeyDir, simulator.origin));
  } catch (error) {
    skipped.push({
      id: 'portkey',
      reason: error instanceof Error ? (error.message.split('\n')[0] ?? 'failed to start') : String(error),
    });
  }
}

/** Discarded load: JSON then SSE, so both paths are compiled and pooled before anything is measured. */
async function warmUp(load: LoadClient, target: Target, options: OverheadOptions): Promise<void> {
  const limits = { ...options, phaseMs: options.warmupMs, maxRequests: Math.min(options.maxRequests, 5_000) };
  for (const phase of PHASES.filter((candidate) => candidate.kind === 'closed')) {
    const result = await load.run(jobFor(phase, target, limits));
    if (result.errors === result.requests)
      throw new Error(
        `${target.id} answered no ${phase.id} request during warm-up: ${result.firstError ?? 'no requests'}\n${target.process.output()}`,
      );
  }
}

async function measure(
  load: LoadClient,
  target: Target,
  phase: Phase,
  options: OverheadOptions,
  accumulators: Map<string, Accumulator>,
): Promise<void> {
  const readsStore = target.id === 'gateway' && isLocal(options.pgUrl);
  const before = readProcessStats(target.process.pid);
  const clientBefore = readProcessStats(load.pid);
  const storeBefore = readsStore ? readCommandCpuMicros('postgres') : null;
  const result = await load.run(jobFor(phase, target, options));
  const after = readProcessStats(target.process.pid);
  const clientAfter = readProcessStats(load.pid);
  const storeAfter = readsStore ? readCommandCpuMicros('postgres') : null;
  const accumulator = accumulators.get(key(target, phase)) ?? {
    runs: [],
    cpuMicros: 0,
    clientCpuMicros: 0,
    rssBytes: 0,
    storeCpuMicros: storeBefore !== null && storeAfter !== null ? 0 : null,
  };
  accumulator.runs.push(result);
  accumulator.cpuMicros += after.cpuMicros - before.cpuMicros;
  accumulator.clientCpuMicros += clientAfter.cpuMicros - clientBefore.cpuMicros;
  accumulator.rssBytes = Math.max(accumulator.rssBytes, after.rssBytes);
  if (accumulator.storeCpuMicros !== null && storeBefore !== null && storeAfter !== null)
    accumulator.storeCpuMicros += storeAfter - storeBefore;
  accumulators.set(key(target, phase), accumulator);
}

const key = (target: Target, phase: Phase) => `${target.id}/${phase.id}`;

function summariseAccumulator(accumulator: Accumulator | undefined): PhaseSummary {
  const runs = accumulator?.runs ?? [];
  return summarise({
    requests: runs.reduce((total, run) => total + run.requests, 0),
    errors: runs.reduce((total, run) => total + run.errors, 0),
    firstError: runs.find((run) => run.firstError !== null)?.firstError ?? null,
    elapsedMs: runs.reduce((total, run) => total + run.elapsedMs, 0),
    roundRps: runs.map((run) => ((run.requests - run.errors) * 1000) / Math.max(run.elapsedMs, 1)),
    latenciesMs: mergeSamples(runs.map((run) => run.latenciesMs)),
    ttfbMs: mergeSamples(runs.map((run) => run.ttfbMs)),
    cpuMicros: accumulator?.cpuMicros ?? 0,
    clientCpuMicros: accumulator?.clientCpuMicros ?? 0,
    rssBytes: accumulator?.rssBytes ?? 0,
    storeCpuMicros: accumulator?.storeCpuMicros ?? null,
  });
}

/** A Postgres server on this machine, whose processes /proc can see. */
function isLocal(url: string): boolean {
  try {
    const { hostname } = new URL(url);
    return ['', '127.0.0.1', 'localhost', '[::1]'].includes(hostname);
  } catch {
    return false;
  }
}

const roundAll = (values: number[]) => values.map((value) => Math.round(value * 100) / 100);
