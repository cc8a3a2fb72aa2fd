import type { BenchLane } from './options.js';
import { outputKinds } from './output-kinds.js';
import { cacheReadMultiplier, cacheTtlMs, cacheWriteMultiplier } from './prompt-cache.js';
import type { SessionResult } from './replay-session.js';
import { sessionCost, summarize, usd, type Totals } from './summary.js';
import { table } from '../text-table.js';

export interface CorpusRun {
  readonly label: string;
  readonly sessions: readonly SessionResult[];
}

export interface OptimizerBenchRun {
  readonly corpora: readonly CorpusRun[];
  readonly thinkMs: number;
  readonly retrieveEvidence: boolean;
  readonly lane: BenchLane;
  readonly store: 'pglite' | 'postgres';
  readonly durationMs: number;
}

/** The last line: the figures machines read, then a few more for people comparing runs. */
export interface OptimizerBenchResult {
  costRatio: number | null;
  needleRetention: number | null;
  replayStability: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  sessions: number;
  requests: number;
  tokenRatio: number | null;
  errorLinesLost: number;
  largeRequests: { minTokens: number; count: number; p50Ms: number | null; p99Ms: number | null };
  thinkSeconds: number;
  lane: BenchLane;
  /** Needles recoverable only through a handle, each paid as one round trip (included in `costRatio`). */
  retrievalRoundTrips: number;
  /** The same headline figures per corpus folder (`transcripts`, `swebench-trajs`), which the totals above mix. */
  corpora: CorpusResult[];
}

/** One corpus folder's headline figures in the last line. */
export interface CorpusResult {
  label: string;
  costRatio: number | null;
  needleRetention: number | null;
  replayStability: number | null;
  errorLinesLost: number;
  retrievalRoundTrips: number;
  sessions: number;
  requests: number;
}

const round = (value: number | null, digits = 4) => (value === null ? null : Number(value.toFixed(digits)));

export function toResult(run: OptimizerBenchRun): OptimizerBenchResult {
  const all = summarize(run.corpora.flatMap((corpus) => corpus.sessions));
  const large = all.latencyBySize[all.latencyBySize.length - 1];
  return {
    costRatio: round(all.costRatio),
    needleRetention: retention(all),
    replayStability: stability(all),
    p50Ms: round(all.latency.p50Ms, 2),
    p99Ms: round(all.latency.p99Ms, 2),
    sessions: all.sessions,
    requests: all.requests,
    tokenRatio: all.tokensBefore === 0 ? null : round(all.tokensAfter / all.tokensBefore),
    errorLinesLost: all.errorLines.lost,
    largeRequests: {
      minTokens: 100_000,
      count: large?.count ?? 0,
      p50Ms: round(large?.p50Ms ?? null, 2),
      p99Ms: round(large?.p99Ms ?? null, 2),
    },
    thinkSeconds: run.thinkMs / 1000,
    lane: run.lane,
    retrievalRoundTrips: all.retrievalRoundTrips,
    corpora: run.corpora.map((corpus) => corpusResult(corpus.label, summarize(corpus.sessions))),
  };
}

const retention = (totals: Totals) =>
  totals.needles.total === 0 ? null : round((totals.needles.total - totals.needles.lost) / totals.needles.total);
const stability = (totals: Totals) =>
  totals.replay.checked === 0 ? null : round(totals.replay.stable / totals.replay.checked);

function corpusResult(label: string, totals: Totals): CorpusResult {
  return {
    label,
    costRatio: round(totals.costRatio),
    needleRetention: retention(totals),
    replayStability: stability(totals),
    errorLinesLost: totals.errorLines.lost,
    retrievalRoundTrips: totals.retrievalRoundTrips,
    sessions: totals.sessions,
    requests: totals.requests,
  };
}

const fixed = (value: number | null, digits: number) => (value === null ? '–' : value.toFixed(digits));
const thousands = (value: number) => value.toLocaleString('en-US');
const share = (part: number, whole: number) => (whole === 0 ? '–' : `${((part / whole) * 100).toFixed(1)}%`);

function sessionRows(sessions: readonly SessionResult[]): string[][] {
  return sessions.map((session) => {
    const before = session.requests.reduce((sum, request) => sum + request.tokensBefore, 0);
    const after = session.requests.reduce((sum, request) => sum + request.tokensAfter, 0);
    const cost = sessionCost(session);
    const kept = session.needles.filter((verdict) => verdict !== 'lost').length;
    const unstable = session.requests.filter((request) => request.stable === false).length;
    return [
      session.name,
      String(session.requests.length),
      thousands(before),
      thousands(after),
      share(before - after, before),
      fixed(cost.baselineUsd, 4),
      fixed(cost.optimizedUsd, 4),
      fixed(cost.baselineUsd > 0 ? cost.optimizedUsd / cost.baselineUsd : null, 3),
      `${kept}/${session.needles.length}`,
      String(unstable),
      String(session.errorLines.lost),
    ];
  });
}

function corpusRow(label: string, totals: Totals): string[] {
  const { needles, replay } = totals;
  return [
    label,
    String(totals.sessions),
    String(totals.requests),
    thousands(totals.tokensBefore),
    thousands(totals.tokensAfter),
    share(totals.tokensBefore - totals.tokensAfter, totals.tokensBefore),
    fixed(totals.baselineUsd, 2),
    fixed(totals.optimizedUsd, 2),
    fixed(totals.costRatio, 3),
    fixed(totals.meanSessionRatio, 3),
    needles.total === 0
      ? '–'
      : `${needles.total - needles.lost}/${needles.total} (${needles.grep} grep, ${needles.retrieve} retrieve)`,
    replay.checked === 0 ? '–' : `${replay.stable}/${replay.checked}`,
    `${totals.errorLines.lost}/${totals.errorLines.checked}`,
  ];
}

/** Cached-cost dollars by kind of tool output: what it costs on first sight, and what the optimizer saved on it. */
function outputKindRows(sessions: readonly SessionResult[], totals: Totals): string[][] {
  const rows = outputKinds.map((kind) => {
    let firstSeenUsd = 0;
    let savedUsd = 0;
    for (const session of sessions) {
      const tally = session.byOutputKind[kind];
      if (!tally) continue;
      firstSeenUsd += usd(tally.firstSeenTokens * cacheWriteMultiplier, session.pricePerMTok);
      savedUsd += usd(tally.savedUnits, session.pricePerMTok);
    }
    return { kind, firstSeenUsd, savedUsd };
  });
  return rows
    .filter((row) => row.firstSeenUsd > 0)
    .sort((a, b) => b.savedUsd - a.savedUsd)
    .map((row) => [
      row.kind,
      fixed(row.firstSeenUsd, 3),
      fixed(row.savedUsd, 3),
      share(row.savedUsd, row.firstSeenUsd),
      share(row.savedUsd, totals.baselineUsd),
    ]);
}

function savedByKind(sessions: readonly SessionResult[]): string {
  const totals = new Map<string, number>();
  for (const session of sessions)
    for (const [kind, saved] of Object.entries(session.savedByKind)) totals.set(kind, (totals.get(kind) ?? 0) + saved);
  return (
    [...totals]
      .sort((a, b) => b[1] - a[1])
      .map(([kind, saved]) => `${kind} ${thousands(saved)}`)
      .join(', ') || 'none'
  );
}

/** Tables for people, then the JSON result alone on the last line. */
export function formatReport(run: OptimizerBenchRun, perSession: boolean): string {
  const all = run.corpora.flatMap((corpus) => corpus.sessions);
  const totals = summarize(all);
  const lines = [
    `optimizer benchmark: ${totals.sessions} sessions, ${totals.requests} requests replayed turn by turn through the optimizer service (in process, stash on ${run.store}); ${(run.durationMs / 1000).toFixed(1)} s`,
    `pricing: list input price per model; a ${cacheTtlMs / 60_000}-minute prompt cache per session, cached reads ${cacheReadMultiplier}×, cache writes ${cacheWriteMultiplier}×; ${run.thinkMs / 1000} s between turns; lane ${run.lane}: retrieval ${run.lane === 'connected' ? 'leased to every session from its first request (fresh reversible trimming; each needle recoverable only through a handle paid as one round trip)' : run.retrieveEvidence ? 'granted to every request' : 'only where the request declares gw_retrieve'}`,
    '',
  ];
  for (const corpus of run.corpora) {
    if (!perSession && corpus.sessions.length > 30) continue;
    lines.push(`${corpus.label}: per session (tokens and cost summed over the session's requests)`);
    lines.push(
      table(
        [
          'session',
          'requests',
          'tokens before',
          'after',
          'saved',
          'cached $',
          'optimized $',
          'ratio',
          'needles',
          'unstable',
          'error lines lost',
        ],
        sessionRows(corpus.sessions),
      ),
      '',
    );
  }
  const corpusRows = run.corpora.map((corpus) => corpusRow(corpus.label, summarize(corpus.sessions)));
  lines.push('Per corpus (cost ratio: optimized ÷ unoptimized-with-prompt-cache, list price)');
  lines.push(
    table(
      [
        'corpus',
        'sessions',
        'requests',
        'input tokens before',
        'after',
        'saved',
        'cached $',
        'optimized $',
        'cost ratio',
        'mean session ratio',
        'needles kept',
        'replay stable',
        'error lines lost',
      ],
      [...corpusRows, corpusRow('total', totals)],
    ),
  );
  if (totals.replay.cold > 0)
    lines.push(
      `(${totals.replay.cold} turns came after the prompt cache expired; a rewrite there busts nothing and is not counted against replay stability)`,
    );
  lines.push(
    '',
    'Optimize latency by request size (ms inside the service, first hook to last byte: body, routing, validation, pipeline, durable stash writes, serialising; round trip adds the in-process client)',
  );
  lines.push(
    table(
      ['request size', 'requests', 'p50', 'p99', 'pipeline p50', 'pipeline p99', 'round trip p50'],
      [...totals.latencyBySize, { label: 'all', ...totals.latency }].map((row) => [
        row.label,
        String(row.count),
        fixed(row.p50Ms, 2),
        fixed(row.p99Ms, 2),
        fixed(row.pipelineP50Ms, 2),
        fixed(row.pipelineP99Ms, 2),
        fixed(row.roundTripP50Ms, 2),
      ]),
    ),
  );
  lines.push('', `tokens saved by strategy (summed over requests): ${savedByKind(all)}`);
  lines.push(
    `retrieval round trips paid: ${totals.retrievalRoundTrips} ($${fixed(totals.retrievalUsd, 3)}, in the optimized cost)`,
    '',
  );
  lines.push(
    'Cached-cost dollars by kind of tool output (first write of the original at 1.25×; saved: tokens removed × 1.25 on first sight, × 0.1 on later turns; approximate, before round trips)',
  );
  lines.push(
    table(['output kind', 'first-write $', 'saved $', 'saved share', 'of session cost'], outputKindRows(all, totals)),
    '',
  );
  lines.push(JSON.stringify(toResult(run)));
  return `${lines.join('\n')}\n`;
}
