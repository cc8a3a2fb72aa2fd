import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRequestView } from '../src/pipeline/index.js';
import { corpusDir, loadTranscripts, MemoryStash, needleSurvives, requestTexts } from './corpus-support.js';
import { cachedCost, replaySession, type Turn } from './corpus-replay-support.js';

const hmacKey = 'corpus-replay-key';

/** Each turn repeats the previous turn's settled prefix byte for byte (issue 6 item 11, "replay stability"). */
function unstableTurns(turns: readonly Turn[], endpoint: string): number[] {
  const unstable: number[] = [];
  for (let index = 1; index < turns.length; index += 1) {
    const previous = turns[index - 1];
    const settled = buildRequestView(endpoint, previous.request)?.freshStart ?? 0;
    const before = JSON.stringify((previous.result.request.messages as unknown[]).slice(0, settled));
    const now = JSON.stringify(((turns[index]).result.request.messages as unknown[]).slice(0, settled));
    if (before !== now) unstable.push(index);
  }
  return unstable;
}

describe('the shared corpus replayed turn by turn with pins', () => {
  const cost = { baseline: 0, optimized: 0 };

  for (const corpusCase of loadTranscripts()) {
    it(`${corpusCase.name}: replays every earlier rewrite byte for byte and keeps every needle`, async () => {
      const endpoint = corpusCase.format === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';
      const stash = new MemoryStash();
      const turns = await replaySession(corpusCase.request, endpoint, { stash, hmacKey });
      expect(unstableTurns(turns, endpoint)).toEqual([]);
      const last = turns[turns.length - 1];
      const texts = requestTexts(last.result.request);
      expect(corpusCase.needles.filter((needle) => !needleSurvives(needle.needle, texts, stash)).map((needle) => needle.needle)).toEqual([]);
      cost.baseline += cachedCost(turns.map((turn) => turn.request.messages as unknown[]));
      cost.optimized += cachedCost(turns.map((turn) => turn.result.request.messages as unknown[]));
    });
  }

  it('SWE-bench trajectories stay byte-stable too (first ten, retrieval granted by the gateway)', async () => {
    const dir = join(corpusDir, 'swebench-trajs');
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.traj.json')).sort().slice(0, 10)) {
      const trajectory = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { messages: unknown[] };
      const request = { model: 'gpt-4.1', messages: trajectory.messages };
      const turns = await replaySession(request, '/v1/chat/completions', { stash: new MemoryStash(), hmacKey }, { capabilities: { retrieveEvidence: true } });
      expect(unstableTurns(turns, '/v1/chat/completions'), file).toEqual([]);
      cost.baseline += cachedCost(turns.map((turn) => turn.request.messages as unknown[]));
      cost.optimized += cachedCost(turns.map((turn) => turn.result.request.messages as unknown[]));
    }
  });

  it('reports the cache-weighted cost against the cached baseline', () => {
    process.stdout.write(`cache-weighted cost ratio ${(cost.optimized / cost.baseline).toFixed(3)} (${Math.round(cost.optimized)} / ${Math.round(cost.baseline)} input-token units)\n`);
    expect(cost.optimized).toBeLessThan(cost.baseline);
  });
});
