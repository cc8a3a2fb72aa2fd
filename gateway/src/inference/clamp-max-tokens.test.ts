import { describe, expect, it } from 'vitest';
import { clampMaxTokens } from './clamp-max-tokens.js';

describe('clampMaxTokens', () => {
  it('clamps above the ceiling down to it', () => {
    expect(clampMaxTokens({ max_tokens: 200_000, model: 'x' }, 'claude-sonnet-4-5-20250929')).toEqual({
      max_tokens: 64_000,
      model: 'x',
    });
    expect(clampMaxTokens({ max_tokens: 9_000 }, 'claude-3-5-haiku-latest')).toEqual({ max_tokens: 8_192 });
  });

  it('keeps a thinking budget below the clamped max_tokens', () => {
    expect(
      clampMaxTokens(
        { max_tokens: 100_000, thinking: { type: 'enabled', budget_tokens: 80_000 } },
        'claude-sonnet-4-5',
      ),
    ).toEqual({ max_tokens: 64_000, thinking: { type: 'enabled', budget_tokens: 63_999 } });
    expect(
      clampMaxTokens({ max_tokens: 100_000, thinking: { type: 'enabled', budget_tokens: 8_000 } }, 'claude-sonnet-4-5'),
    ).toEqual({ max_tokens: 64_000, thinking: { type: 'enabled', budget_tokens: 8_000 } });
  });

  it('leaves values at or under the ceiling, unknown models and missing values unchanged (same object)', () => {
    const atCeiling = { max_tokens: 64_000 };
    expect(clampMaxTokens(atCeiling, 'claude-sonnet-4-5')).toBe(atCeiling);
    const low = { max_tokens: 10 };
    expect(clampMaxTokens(low, 'claude-sonnet-4-5')).toBe(low);
    const unknown = { max_tokens: 1_000_000 };
    expect(clampMaxTokens(unknown, 'some-new-model')).toBe(unknown);
    const none = { model: 'claude-sonnet-4-5' };
    expect(clampMaxTokens(none, 'claude-sonnet-4-5')).toBe(none);
  });
});
