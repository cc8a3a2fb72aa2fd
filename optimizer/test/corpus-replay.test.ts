import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRequestView } from '../src/pipeline/index.js';
import { corpusDir, loadTranscripts, MemoryStash, needleSurvives, requestTexts } from './corpus-support.js';
import { cachedCost, replaySession, type Turn } from './corpus-replay-support.js';

const hmacKey = 'corpus-replay-key';

/** Each turn repeats the previous turn's settled prefix byte for byte ("replay stability"). */
function unstableTurns(turns: readonly Turn[], endpoint: string): number[] {
  const unstable: number[] = [];
  for (let index = 1; index < turns.length; index += 1) {
    const previous = turns[index - 1];
    const settled = buildRequestView(endpoint, previous.request)?.freshStart ?? 0;
    const before = JSON.stringify((previous.result.request.messages as unknown[]).slice(0, settled));
    const now = JSON.stringify((turns[index].result.request.messages as unknown[]).slice(0, settled));
    if (before !== now) unstable.push(index);
  }
  return unstable;
}

// As the gateway tells it for an upstream with a prompt cache: rewriting what it cached costs a cache write.
const cachingUpstream = { capabilities: { providerPromptCache: true, providerPromptCacheKnown: true } };

describe('the shared corpus replayed turn by turn with pins', () => {
  const cost = { baseline: 0, optimized: 0 };
  const transcripts = { baseline: 0, optimized: 0 };

  for (const corpusCase of loadTranscripts()) {
    it(`${corpusCase.name}: replays every earlier rewrite byte for byte and keeps every needle`, async () => {
      const endpoint = corpusCase.format === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';
      const stash = new MemoryStash();
      const turns = await replaySession(corpusCase.request, endpoint, { stash, hmacKey }, cachingUpstream);
      expect(unstableTurns(turns, endpoint)).toEqual([]);
      // Every needle, on every turn whose request already carries it.
      for (const turn of turns) {
        const texts = requestTexts(turn.result.request);
        const present = corpusCase.needles.filter(
          (needle) => needle.where < (turn.request.messages as unknown[]).length,
        );
        expect(
          present.filter((needle) => !needleSurvives(needle.needle, texts, stash)).map((needle) => needle.needle),
        ).toEqual([]);
      }
      transcripts.baseline += cachedCost(turns.map((turn) => turn.request.messages as unknown[]));
      transcripts.optimized += cachedCost(turns.map((turn) => turn.result.request.messages as unknown[]));
    });
  }

  it('SWE-bench trajectories stay byte-stable too (first ten, retrieval granted by the gateway)', async () => {
    const dir = join(corpusDir, 'swebench-trajs');
    for (const file of readdirSync(dir)
      .filter((name) => name.endsWith('.traj.json'))
      .sort()
      .slice(0, 10)) {
      const trajectory = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { messages: unknown[] };
      const request = { model: 'gpt-4.1', messages: trajectory.messages };
      const turns = await replaySession(
        request,
        '/v1/chat/completions',
        { stash: new MemoryStash(), hmacKey },
        { capabilities: { ...cachingUpstream.capabilities, retrieveEvidence: true } },
      );
      expect(unstableTurns(turns, '/v1/chat/completions'), file).toEqual([]);
      cost.baseline += cachedCost(turns.map((turn) => turn.request.messages as unknown[]));
      cost.optimized += cachedCost(turns.map((turn) => turn.result.request.messages as unknown[]));
    }
  });

  it('reports the cache-weighted cost against the cached baseline', () => {
    const ratio = transcripts.optimized / transcripts.baseline;
    process.stdout.write(
      `cache-weighted cost ratio: transcripts ${ratio.toFixed(3)}, ten SWE-bench runs ${(cost.optimized / cost.baseline).toFixed(3)}\n`,
    );
    // A regression bar a little above what the pipeline does today (npm run bench -- optimizer has the full picture).
    expect(ratio).toBeLessThan(0.93);
    expect(cost.optimized).toBeLessThan(cost.baseline);
  });
});
