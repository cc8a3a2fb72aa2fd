import { describe, expect, it } from 'vitest';
import { countTokensExact, runPipeline } from '../src/pipeline/index.js';
import { loadTranscripts, MemoryStash, needleSurvives, requestTexts } from './corpus-support.js';

const hmacKey = 'corpus-test-key';
const cases = loadTranscripts();

function endpointOf(format: 'openai' | 'anthropic'): string {
  return format === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';
}

function tokensOf(request: Record<string, unknown>): number {
  return requestTexts(request).reduce((sum, text) => sum + countTokensExact(text), 0);
}

describe('the shared corpus through the pipeline', () => {
  const totals = { before: 0, after: 0 };

  for (const corpusCase of cases) {
    it(`${corpusCase.name}: keeps every needle verbatim or behind a handle the output carries`, async () => {
      const stash = new MemoryStash();
      const result = await runPipeline(
        { endpoint: endpointOf(corpusCase.format), request: corpusCase.request, pins: [], capabilities: {} },
        { stash, hmacKey },
      );
      const texts = requestTexts(result.request);
      const lost = corpusCase.needles
        .filter((needle) => !needleSurvives(needle.needle, texts, stash))
        .map((needle) => needle.needle);
      expect(lost).toEqual([]);
      const before = tokensOf(corpusCase.request);
      const after = tokensOf(result.request);
      totals.before += before;
      totals.after += after;
      process.stdout.write(
        `${corpusCase.name.padEnd(44)} ${String(before).padStart(7)} -> ${String(after).padStart(7)}  ${((1 - after / before) * 100).toFixed(1)}%  est ${result.estimatedTokensSaved}  ${result.decisions.map((d) => d.kind).join(',')}\n`,
      );
    });
  }

  it('reports the aggregate reduction', () => {
    process.stdout.write(
      `TOTAL ${totals.before} -> ${totals.after} (${((1 - totals.after / totals.before) * 100).toFixed(1)}% fewer tokens)\n`,
    );
    expect(totals.after).toBeLessThan(totals.before);
  });
});
