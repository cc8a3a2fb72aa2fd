import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  formatReport,
  parseOptimizerOptions,
  runOptimizerBench,
  type OptimizerBenchResult,
} from '../src/optimizer/index.js';

// The shared corpus sits beside the repository (`../shared/corpus/`).
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const shared = join(repoRoot, '..', 'shared', 'corpus');
// One Messages-format session that declares gw_retrieve and one chat session that does not: both lanes.
const picked = ['005-express-eslint-fix', '012-kleur-small-fix'];

function smallCorpus(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-corpus-'));
  for (const folder of ['transcripts', 'needles']) {
    mkdirSync(join(dir, folder));
    for (const name of picked) copyFileSync(join(shared, folder, `${name}.json`), join(dir, folder, `${name}.json`));
  }
  return dir;
}

describe('npm run bench -- optimizer on two small transcripts', () => {
  const dir = smallCorpus();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replays both sessions through the service, keeps every needle and every earlier rewrite, and ends on the JSON line', async () => {
    const options = parseOptimizerOptions(['--corpus', dir], repoRoot);
    const run = await runOptimizerBench(options);
    const report = formatReport(run, false);
    const lines = report.trimEnd().split('\n');
    const result = JSON.parse(lines.at(-1) ?? '') as OptimizerBenchResult;

    expect(Object.keys(result).slice(0, 7)).toEqual([
      'costRatio',
      'needleRetention',
      'replayStability',
      'p50Ms',
      'p99Ms',
      'sessions',
      'requests',
    ]);
    expect(result).toMatchObject({
      sessions: 2,
      requests: 15,
      needleRetention: 1,
      replayStability: 1,
      errorLinesLost: 0,
      thinkSeconds: 30,
    });
    // ANSI-coloured test output is cleaned when it first appears, so the optimized sessions cost less than cached ones.
    expect(result.costRatio).toBeLessThan(1);
    expect(result.tokenRatio).toBeLessThan(1);
    expect(result.p50Ms).toBeGreaterThan(0);
    expect(report).toContain(`${dir.split('/').at(-1)}/transcripts: per session`);
    for (const name of picked) expect(report).toContain(name);
  });
});
