import { performance } from 'node:perf_hooks';
import { loadCorpora } from './corpus.js';
import type { OptimizerBenchOptions } from './options.js';
import { startOptimizerService } from './optimizer-service.js';
import { TokenCounter } from './prompt-units.js';
import { replaySession, type SessionResult } from './replay-session.js';
import type { CorpusRun, OptimizerBenchRun } from './report.js';

export interface OptimizerBenchDeps {
  /** Progress lines (stderr in the CLI). */
  readonly progress?: (line: string) => void;
}

// Sessions are spaced far apart on the service's clock: no provider cache, pin or guard window spans two of them.
const sessionGapMs = 6 * 3_600_000;

/** Every session of every corpus, one after the other, through one in-process optimizer service. */
export async function runOptimizerBench(
  options: OptimizerBenchOptions,
  deps: OptimizerBenchDeps = {},
): Promise<OptimizerBenchRun> {
  const started = performance.now();
  const corpora = options.corpusDirs.flatMap((dir) => loadCorpora(dir, { limit: options.limit, only: options.only }));
  const service = await startOptimizerService({ pgUrl: options.pgUrl });
  const counter = new TokenCounter();
  const runs: CorpusRun[] = [];
  let startAt = service.clock.now();
  try {
    for (const corpus of corpora) {
      const sessions: SessionResult[] = [];
      for (const [index, session] of corpus.sessions.entries()) {
        deps.progress?.(`${corpus.label} ${index + 1}/${corpus.sessions.length} ${session.name}`);
        sessions.push(
          await replaySession(session, {
            service,
            counter,
            thinkMs: options.thinkMs,
            retrieveEvidence: options.retrieveEvidence,
            lane: options.lane,
            startAt,
          }),
        );
        startAt += sessionGapMs;
      }
      runs.push({ label: corpus.label, sessions });
    }
  } finally {
    await service.close();
  }
  return {
    corpora: runs,
    thinkMs: options.thinkMs,
    retrieveEvidence: options.retrieveEvidence,
    lane: options.lane,
    store: options.pgUrl ? 'postgres' : 'pglite',
    durationMs: performance.now() - started,
  };
}
