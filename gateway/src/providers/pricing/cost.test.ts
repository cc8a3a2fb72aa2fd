import { describe, expect, it } from 'vitest';
import { costUsd } from './cost.js';
import { lookupModel } from './known-models.js';

describe('costUsd', () => {
  it('prices cache reads, cache writes and output separately (Anthropic)', () => {
    const facts = lookupModel('claude-sonnet-4-5-20250929');
    // 1,000 uncached + 10,000 cache read + 2,000 cache write input tokens, 500 output tokens.
    const usage = { inputTokens: 13_000, cacheReadTokens: 10_000, cacheWriteTokens: 2_000, outputTokens: 500 };
    expect(costUsd(usage, facts)).toBeCloseTo(1_000 * 3e-6 + 10_000 * 0.3e-6 + 2_000 * 3.75e-6 + 500 * 15e-6, 12);
  });

  it('prices cached input at the cached rate and reasoning as output (OpenAI)', () => {
    const facts = lookupModel('gpt-4.1-2025-04-14');
    const usage = {
      inputTokens: 2_000,
      cacheReadTokens: 1_500,
      cacheWriteTokens: 0,
      outputTokens: 300,
      reasoningTokens: 200,
    };
    expect(costUsd(usage, facts)).toBeCloseTo(500 * 2e-6 + 1_500 * 0.5e-6 + 300 * 8e-6, 12);
  });

  it('costs nothing for an unknown model', () => {
    expect(lookupModel('my-finetune')).toBeUndefined();
    expect(costUsd({ inputTokens: 10, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 }, undefined)).toBe(0);
  });

  it('matches provider-prefixed and dated ids to their base model', () => {
    expect(lookupModel('anthropic/claude-haiku-4-5')?.maxOutputTokens).toBe(64_000);
    expect(lookupModel('claude-3-5-haiku-latest')?.maxOutputTokens).toBe(8_192);
    expect(lookupModel('gpt-4.1-mini')?.inputPerMTok).toBe(0.4);
  });

  it('matches dated ids of registered models, and a registration wins over the built-in table', () => {
    const registered = {
      'acme-large': {
        family: 'openai' as const,
        inputPerMTok: 1,
        outputPerMTok: 2,
        cacheReadPerMTok: 0.1,
        cacheWritePerMTok: 1.25,
        maxOutputTokens: 4_096,
        contextTokens: 32_000,
      },
      'gpt-4.1': {
        family: 'openai' as const,
        inputPerMTok: 9,
        outputPerMTok: 9,
        cacheReadPerMTok: 0.9,
        cacheWritePerMTok: 9,
        maxOutputTokens: 1_000,
        contextTokens: 8_000,
      },
    };
    expect(lookupModel('acme-large-2026-01-15', registered)?.inputPerMTok).toBe(1);
    expect(lookupModel('gpt-4.1-2025-04-14', registered)?.inputPerMTok).toBe(9);
    expect(lookupModel('acme-large-v2', registered)).toBeUndefined();
  });
});
