import type { RequestRecord, SessionResult } from './replay-session.js';

/** Request-size classes for the latency table, by the unoptimized request's input tokens. */
export const sizeClasses = [
  { label: '< 10k tokens', below: 10_000 },
  { label: '10k–50k', below: 50_000 },
  { label: '50k–100k', below: 100_000 },
  { label: '≥ 100k', below: Infinity },
] as const;

export interface Latency {
  readonly count: number;
  readonly p50Ms: number | null;
  readonly p99Ms: number | null;
  /** The same calls timed around the in-process client (see TimedOptimize.roundTripMs). */
  readonly roundTripP50Ms: number | null;
  /** The strategy pipeline's share of the same calls. */
  readonly pipelineP50Ms: number | null;
  readonly pipelineP99Ms: number | null;
}

export interface Totals {
  readonly sessions: number;
  readonly requests: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly baselineUsd: number;
  readonly optimizedUsd: number;
  /** Σ optimized cost ÷ Σ cached-baseline cost: what the sessions together pay against what they would have. */
  readonly costRatio: number | null;
  /** The same ratio per session, averaged: every session weighs the same whatever its size or model. */
  readonly meanSessionRatio: number | null;
  readonly needles: Readonly<Record<'verbatim' | 'grep' | 'retrieve' | 'lost', number>> & { readonly total: number };
  readonly replay: { readonly checked: number; readonly stable: number; readonly cold: number };
  readonly errorLines: { readonly checked: number; readonly lost: number };
  /** Round trips the model needed to recover needles only a handle held; their cost is in `optimizedUsd`. */
  readonly retrievalRoundTrips: number;
  readonly retrievalUsd: number;
  readonly latency: Latency;
  readonly latencyBySize: readonly (Latency & { readonly label: string })[];
}

/** Nearest-rank percentile of an ascending list. */
function percentile(sorted: readonly number[], share: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(share * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] ?? null;
}

export function latencyOf(requests: readonly RequestRecord[]): Latency {
  const sorted = requests.map((request) => request.ms).sort((a, b) => a - b);
  const pipeline = requests.map((request) => request.pipelineMs).sort((a, b) => a - b);
  const roundTrip = requests.map((request) => request.roundTripMs).sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    roundTripP50Ms: percentile(roundTrip, 0.5),
    pipelineP50Ms: percentile(pipeline, 0.5),
    pipelineP99Ms: percentile(pipeline, 0.99),
  };
}

function sizeClassOf(tokens: number): string {
  return (sizeClasses.find((size) => tokens < size.below) ?? sizeClasses[sizeClasses.length - 1]).label;
}

export function usd(units: number, pricePerMTok: number): number {
  return (units * pricePerMTok) / 1_000_000;
}

export function sessionCost(session: SessionResult): { baselineUsd: number; optimizedUsd: number } {
  let baseline = 0;
  let optimized = 0;
  for (const request of session.requests) {
    baseline += request.baselineUnits;
    optimized += request.optimizedUnits;
  }
  return { baselineUsd: usd(baseline, session.pricePerMTok), optimizedUsd: usd(optimized, session.pricePerMTok) };
}

export function summarize(sessions: readonly SessionResult[]): Totals {
  const requests = sessions.flatMap((session) => session.requests);
  const costs = sessions.map(sessionCost);
  const baselineUsd = costs.reduce((sum, cost) => sum + cost.baselineUsd, 0);
  const optimizedUsd = costs.reduce((sum, cost) => sum + cost.optimizedUsd, 0);
  const ratios = costs.filter((cost) => cost.baselineUsd > 0).map((cost) => cost.optimizedUsd / cost.baselineUsd);
  const verdicts = sessions.flatMap((session) => session.needles);
  const count = (verdict: string) => verdicts.filter((candidate) => candidate === verdict).length;
  const compared = requests.filter((request) => request.stable !== null);
  const turnsAfterFirst = requests.length - sessions.length;
  return {
    sessions: sessions.length,
    requests: requests.length,
    tokensBefore: requests.reduce((sum, request) => sum + request.tokensBefore, 0),
    tokensAfter: requests.reduce((sum, request) => sum + request.tokensAfter, 0),
    baselineUsd,
    optimizedUsd,
    costRatio: baselineUsd > 0 ? optimizedUsd / baselineUsd : null,
    meanSessionRatio: ratios.length > 0 ? ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length : null,
    needles: {
      total: verdicts.length,
      verbatim: count('verbatim'),
      grep: count('grep'),
      retrieve: count('retrieve'),
      lost: count('lost'),
    },
    replay: {
      checked: compared.length,
      stable: compared.filter((request) => request.stable === true).length,
      cold: turnsAfterFirst - compared.length,
    },
    errorLines: {
      checked: sessions.reduce((sum, session) => sum + session.errorLines.checked, 0),
      lost: sessions.reduce((sum, session) => sum + session.errorLines.lost, 0),
    },
    retrievalRoundTrips: requests.reduce((sum, request) => sum + request.retrievalRoundTrips, 0),
    retrievalUsd: sessions.reduce(
      (sum, session) =>
        sum +
        usd(
          session.requests.reduce((units, request) => units + request.retrievalUnits, 0),
          session.pricePerMTok,
        ),
      0,
    ),
    latency: latencyOf(requests),
    latencyBySize: sizeClasses.map((size) => ({
      label: size.label,
      ...latencyOf(requests.filter((request) => sizeClassOf(request.tokensBefore) === size.label)),
    })),
  };
}
