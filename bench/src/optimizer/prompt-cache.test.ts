import { describe, expect, it } from 'vitest';
import { billUnits, cacheTtlMs, PromptCache } from './prompt-cache.js';
import type { PromptUnit } from './prompt-units.js';

const unit = (hash: string, tokens: number): PromptUnit => ({ hash, tokens });
const head = unit('head', 1_000);
const task = unit('task', 100);
const output = unit('output', 5_000);
const reply = unit('reply', 50);
const question = unit('question', 20);

describe('PromptCache', () => {
  it('writes a first request in full, then reads the longest prefix sent before and writes only the rest', () => {
    const cache = new PromptCache();
    expect(cache.bill([head, task], 0)).toEqual({ readTokens: 0, writeTokens: 1_100 });
    expect(cache.bill([head, task, reply, output], 30_000)).toEqual({ readTokens: 1_100, writeTokens: 5_050 });
    expect(billUnits({ readTokens: 1_100, writeTokens: 5_050 })).toBeCloseTo(110 + 6_312.5, 6);
  });

  it('writes everything from the first changed message on, even when later messages are unchanged', () => {
    const cache = new PromptCache();
    cache.bill([head, task, reply, output], 0);
    const rewritten = unit('output-elided', 300);
    expect(cache.bill([head, task, reply, rewritten, reply, question], 30_000)).toEqual({
      readTokens: 1_150,
      writeTokens: 370,
    });
    // The rewrite is now cached too: the next turn reads it.
    expect(cache.bill([head, task, reply, rewritten, reply, question, reply], 60_000)).toEqual({
      readTokens: 1_520,
      writeTokens: 50,
    });
  });

  it('forgets a prefix five minutes after it was last sent, and every hit keeps it alive for five more', () => {
    const cache = new PromptCache();
    cache.bill([head, task], 0);
    expect(cache.bill([head, task], cacheTtlMs - 1).readTokens).toBe(1_100);
    expect(cache.bill([head, task], 2 * cacheTtlMs - 2).readTokens).toBe(1_100);
    expect(cache.bill([head, task], 3 * cacheTtlMs)).toEqual({ readTokens: 0, writeTokens: 1_100 });
  });

  it('reads a prefix shared with any earlier request, not only the last one', () => {
    const cache = new PromptCache();
    cache.bill([head, task, output], 0);
    cache.bill([head, question], 10_000);
    expect(cache.bill([head, task, output, reply], 20_000)).toEqual({ readTokens: 6_100, writeTokens: 50 });
  });
});
