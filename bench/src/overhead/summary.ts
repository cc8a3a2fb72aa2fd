import { percentile } from '../load/samples.js';

/** One target in one phase, all rounds merged. Times in milliseconds; NaN where nothing was measured. */
export interface PhaseSummary {
  requests: number;
  errors: number;
  firstError: string | null;
  /** Successful requests per second over the measured time (meaningful for closed loops). */
  throughputRps: number;
  /** Per-round throughput, to see the noise. */
  roundRps: number[];
  p50Ms: number;
  p99Ms: number;
  /** Time to first body byte (for a stream, its first event). */
  ttfbP50Ms: number;
  ttfbP99Ms: number;
  /** The target process's own CPU (user + system) per request. */
  cpuMicrosPerRequest: number;
  /** The load generator's CPU per request: near a full core means the client, not the server, set the pace. */
  clientCpuMicrosPerRequest: number;
  /** Largest resident set seen after this phase. */
  rssMiB: number;
  /**
   * The local Postgres server's CPU per request while this target ran (every `postgres` process): null for a target
   * without a Postgres store, or with one on another machine. Not in `cpuMicrosPerRequest`, but on the same cores.
   */
  storeCpuMicrosPerRequest: number | null;
}

export interface SummaryInput {
  requests: number;
  errors: number;
  firstError: string | null;
  elapsedMs: number;
  roundRps: number[];
  latenciesMs: Float64Array;
  ttfbMs: Float64Array;
  cpuMicros: number;
  clientCpuMicros: number;
  rssBytes: number;
  storeCpuMicros: number | null;
}

export function summarise(input: SummaryInput): PhaseSummary {
  const succeeded = input.requests - input.errors;
  return {
    requests: input.requests,
    errors: input.errors,
    firstError: input.firstError,
    throughputRps: round((succeeded * 1000) / Math.max(input.elapsedMs, 1), 0),
    roundRps: input.roundRps.map((value) => round(value, 0)),
    p50Ms: round(percentile(input.latenciesMs, 50), 3),
    p99Ms: round(percentile(input.latenciesMs, 99), 3),
    ttfbP50Ms: round(percentile(input.ttfbMs, 50), 3),
    ttfbP99Ms: round(percentile(input.ttfbMs, 99), 3),
    cpuMicrosPerRequest: round(perRequest(input.cpuMicros, input.requests), 1),
    clientCpuMicrosPerRequest: round(perRequest(input.clientCpuMicros, input.requests), 1),
    rssMiB: round(input.rssBytes / (1024 * 1024), 1),
    storeCpuMicrosPerRequest:
      input.storeCpuMicros === null ? null : round(perRequest(input.storeCpuMicros, input.requests), 1),
  };
}

const perRequest = (micros: number, requests: number) => (requests > 0 ? micros / requests : Number.NaN);

export function round(value: number, digits: number): number {
  if (!Number.isFinite(value)) return Number.NaN;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
