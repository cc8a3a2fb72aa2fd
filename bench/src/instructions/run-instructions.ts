import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayTarget } from '../overhead/gateway-target.js';
import { LoadClient } from '../overhead/load-client.js';
import { PHASES, jobFor, type Phase } from '../overhead/phases.js';
import { startBareProxyTarget, startSimulatorTarget, type Target } from '../overhead/targets.js';
import { parseAnnotation } from './annotate.js';
import { annotate, callgrindControl, callgrindLauncher, checkValgrind } from './callgrind.js';
import { summariseProfile, type ProfileSummary } from './categories.js';
import { parsePerfMap } from './perf-map.js';

export type CountedTargetId = 'bare-proxy' | 'gateway' | 'gateway-pglite';
export type Format = 'json' | 'sse';

export interface InstructionsOptions {
  targets: CountedTargetId[];
  /** Uncounted requests per format before counting starts (JIT tiers up, pools fill). */
  warmupRequests: number;
  /** Counted requests per format. */
  requests: number;
  connections: number;
  pgUrl: string;
  redisUrl: string | null;
  gatewayLogLevel: string;
  /** Functions listed per target and format, and in the gateway-minus-bare-proxy table. */
  top: number;
  /** Keep the callgrind dumps and perf maps here; null: a temporary folder, removed afterwards. */
  keepDir: string | null;
}

export interface CountedFormat {
  requests: number;
  errors: number;
  firstError: string | null;
  profile: ProfileSummary;
}

export interface InstructionsRun {
  options: InstructionsOptions;
  results: Partial<Record<CountedTargetId, Record<Format, CountedFormat>>>;
  node: string;
  durationMs: number;
}

// Under callgrind a process starts ~50× slower and answers its first requests slower still.
const START_TIMEOUT_MS = 15 * 60_000;
const JOB_LIMIT_MS = 60 * 60_000;

/**
 * Each target in turn as a real process under callgrind: warmed up uninstrumented, then counted over a fixed number
 * of requests per format. Instruction counts do not depend on what else the machine is doing, unlike timings.
 */
export async function runInstructions(
  options: InstructionsOptions,
  progress: (line: string) => void,
): Promise<InstructionsRun> {
  const startedAt = Date.now();
  await checkValgrind();
  const workDir = options.keepDir ?? (await mkdtemp(join(tmpdir(), 'gw-instructions-')));
  await mkdir(workDir, { recursive: true });
  const load = LoadClient.start();
  let simulator: Target | null = null;
  const results: InstructionsRun['results'] = {};
  try {
    simulator = await startSimulatorTarget();
    for (const id of options.targets) {
      progress(`${id}: starting under callgrind`);
      results[id] = await countTarget(id, simulator.origin, workDir, load, options, progress);
    }
  } finally {
    await load.stop();
    await simulator?.process.stop();
    if (options.keepDir === null) await rm(workDir, { recursive: true, force: true });
  }
  return { options, results, node: process.version, durationMs: Date.now() - startedAt };
}

async function countTarget(
  id: CountedTargetId,
  upstream: string,
  workDir: string,
  load: LoadClient,
  options: InstructionsOptions,
  progress: (line: string) => void,
): Promise<Record<Format, CountedFormat>> {
  // callgrind puts the process id in place of %p, and appends the dump's number to each dump.
  const launch = {
    launcher: callgrindLauncher(join(workDir, `${id}.%p.out`)),
    // Names for JIT code in /tmp/perf-<pid>.map; V8's own log goes to the work folder, not the working directory.
    nodeArgs: ['--perf-basic-prof', '--no-logfile-per-isolate', `--logfile=${join(workDir, `${id}.v8.log`)}`],
    timeoutMs: START_TIMEOUT_MS,
  };
  const target: Target =
    id === 'bare-proxy'
      ? await startBareProxyTarget(upstream, launch)
      : await startGatewayTarget({
          ...launch,
          store: id === 'gateway' ? 'postgres' : 'pglite',
          upstream,
          pgUrl: options.pgUrl,
          redisUrl: id === 'gateway' ? options.redisUrl : null,
          logLevel: options.gatewayLogLevel,
        });
  const perfMapFile = `/tmp/perf-${target.process.pid}.map`;
  const outputBase = join(workDir, `${id}.${target.process.pid}.out`);
  try {
    const phases = closedPhases();
    for (const [format, phase] of phases) {
      progress(`${id}: ${options.warmupRequests} ${format} requests to warm up`);
      assertAnswered(id, format, await load.run(job(phase, target, options, options.warmupRequests)), target);
    }
    const counted: Partial<Record<Format, { result: Awaited<ReturnType<LoadClient['run']>>; dump: string }>> = {};
    let dumps = 0;
    for (const [format, phase] of phases) {
      progress(`${id}: counting ${options.requests} ${format} requests`);
      await callgrindControl(target.process.pid, '--instr=on');
      await callgrindControl(target.process.pid, '--zero');
      const result = await load.run(job(phase, target, options, options.requests));
      await callgrindControl(target.process.pid, '--dump');
      await callgrindControl(target.process.pid, '--instr=off');
      dumps += 1;
      assertAnswered(id, format, result, target);
      counted[format] = { result, dump: `${outputBase}.${dumps}` };
    }
    const perfMap = parsePerfMap(await readFile(perfMapFile, 'utf8'));
    // Kept dumps name JIT code only by address: the map goes with them.
    if (options.keepDir !== null) await copyFile(perfMapFile, `${outputBase}.perf.map`);
    const summarise = async (format: Format): Promise<CountedFormat> => {
      const entry = counted[format];
      if (!entry) throw new Error(`${id}: no ${format} count`);
      const profile = parseAnnotation(await annotate(entry.dump));
      return {
        requests: entry.result.requests,
        errors: entry.result.errors,
        firstError: entry.result.firstError,
        profile: summariseProfile(profile, perfMap),
      };
    };
    return { json: await summarise('json'), sse: await summarise('sse') };
  } finally {
    await target.process.stop();
    await target.dispose();
    await rm(perfMapFile, { force: true });
  }
}

/** The closed-loop JSON and SSE phases of the overhead benchmark: the same bodies, the same client. */
function closedPhases(): Array<[Format, Phase]> {
  const phase = (id: Phase['id']) => {
    const found = PHASES.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`no phase ${id}`);
    return found;
  };
  return [
    ['json', phase('closed-json')],
    ['sse', phase('closed-sse')],
  ];
}

function job(phase: Phase, target: Target, options: InstructionsOptions, requests: number) {
  return jobFor(phase, target, {
    phaseMs: JOB_LIMIT_MS,
    maxRequests: requests,
    serialRequests: requests,
    connections: options.connections,
    rate: 1,
  });
}

function assertAnswered(
  id: CountedTargetId,
  format: Format,
  result: { requests: number; errors: number; firstError: string | null },
  target: Target,
): void {
  if (result.errors > 0)
    throw new Error(
      `${id} failed ${result.errors} of ${result.requests} ${format} requests (${result.firstError}); a count with failures is not comparable\n${target.process.output()}`,
    );
}
