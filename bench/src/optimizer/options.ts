import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export const OPTIMIZER_USAGE = `usage: npm run bench -- optimizer [options]

Replays every session of a corpus turn by turn through the real optimizer service (in process, durable stash on
PGlite) and prices each request as a provider with a 5-minute prompt cache bills it.

  --corpus DIR           corpus folder (transcripts/ + needles/, and/or swebench-trajs/, or a folder of *.traj.json);
                         repeatable (default ../shared/corpus from the repository root)
  --think-seconds S      simulated time between turns of a session (default 30; above 300 the prompt cache expires)
  --limit N              at most N sessions per corpus (default all)
  --only TEXT            only sessions whose name contains TEXT
  --lane LANE            default: the gateway as it is without a retrieval lease (the fresh turn forwarded byte for
                         byte); connected: every session holds the retrieval lease from its first request
                         (capabilities.retrievalDiscovery lease_live), the two retrieval tools are added from the
                         first request carrying a ctx_ marker, and every needle recoverable only through a handle is
                         paid as one retrieval round trip
  --retrieve-evidence    tell the optimizer the gateway verified retrieval for every request (default: only where
                         the request itself declares gw_retrieve, as the gateway does without a retrieval lease)
  --pg-url URL           keep the durable stash in a fresh schema of this Postgres server instead of in-memory PGlite
  --per-session          print a row per session for every corpus (default only for corpora of at most 30 sessions)
`;

export const benchLanes = ['default', 'connected'] as const;
export type BenchLane = (typeof benchLanes)[number];

export interface OptimizerBenchOptions {
  readonly corpusDirs: readonly string[];
  readonly thinkMs: number;
  readonly limit: number | undefined;
  readonly only: string | undefined;
  readonly retrieveEvidence: boolean;
  readonly lane: BenchLane;
  readonly pgUrl: string | undefined;
  readonly perSession: boolean;
}

/** `root` is the repository root: the shared corpus sits beside it (`../shared/corpus/`). */
export function parseOptimizerOptions(args: readonly string[], root: string): OptimizerBenchOptions {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    options: {
      corpus: { type: 'string', multiple: true },
      'think-seconds': { type: 'string' },
      limit: { type: 'string' },
      only: { type: 'string' },
      'retrieve-evidence': { type: 'boolean' },
      lane: { type: 'string' },
      'pg-url': { type: 'string' },
      'per-session': { type: 'boolean' },
    },
  });
  const number = (name: string, raw: string | undefined, fallback: number, minimum: number) => {
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (!Number.isFinite(parsed) || parsed < minimum)
      throw new Error(`--${name} must be a number ≥ ${minimum}, got ${raw}`);
    return parsed;
  };
  const corpora = values.corpus ?? [resolve(root, '../shared/corpus')];
  const lane = values.lane ?? 'default';
  if (!(benchLanes as readonly string[]).includes(lane))
    throw new Error(`--lane must be one of ${benchLanes.join(', ')}, got ${lane}`);
  return {
    corpusDirs: corpora.map((dir) => resolve(dir)),
    thinkMs: Math.round(number('think-seconds', values['think-seconds'], 30, 0) * 1000),
    limit: values.limit === undefined ? undefined : Math.floor(number('limit', values.limit, 0, 1)),
    only: values.only,
    retrieveEvidence: values['retrieve-evidence'] === true,
    lane: lane as BenchLane,
    pgUrl: values['pg-url'],
    perSession: values['per-session'] === true,
  };
}
