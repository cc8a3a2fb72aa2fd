import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countTokens, countTokensExact, estimateTokensOfStrings, exactTokenLimitChars } from './count-tokens.js';

const fixtures = join(import.meta.dirname, '..', 'strategies', '__fixtures__');

describe('countTokens', () => {
  it('counts o200k_base tokens exactly for short text', () => {
    expect(countTokensExact('hello world')).toBe(2);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
  });

  it('treats special-token text in a tool output as ordinary text', () => {
    expect(countTokens('before <|endoftext|> after')).toBeGreaterThan(3);
  });

  it('estimates large outputs within a few percent of the exact count', () => {
    for (const name of ['express-debug-log.txt', 'npm-view-fastify.txt', 'tap-failures.txt']) {
      const text = readFileSync(join(fixtures, name), 'utf8');
      expect(text.length).toBeGreaterThan(exactTokenLimitChars);
      const exact = countTokensExact(text);
      expect(Math.abs(countTokens(text) - exact) / exact, name).toBeLessThan(0.1);
    }
  });

  it('is deterministic and cheap the second time the same string comes back', () => {
    const text = readFileSync(join(fixtures, 'pino-log-head.txt'), 'utf8');
    const first = countTokens(text);
    const started = performance.now();
    for (let round = 0; round < 100; round += 1) expect(countTokens(text)).toBe(first);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('estimates many strings at once', () => {
    const strings = Array.from({ length: 200 }, (_, index) => `line ${index}: some ordinary words in a message`);
    const exact = countTokensExact(strings.join('\n'));
    expect(Math.abs(estimateTokensOfStrings(strings) - exact) / exact).toBeLessThan(0.1);
  });
});
