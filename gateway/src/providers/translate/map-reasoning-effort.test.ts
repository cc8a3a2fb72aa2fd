import { describe, expect, it } from 'vitest';
import { effortForThinking, thinkingBudgetByEffort, thinkingForEffort } from './map-reasoning-effort.js';

describe('thinkingForEffort', () => {
  it.each([
    ['minimal', 1024],
    ['low', 2048],
    ['medium', 8192],
    ['high', 16384],
    ['xhigh', 24576],
    ['max', 32000],
  ] as const)('gives %s a budget of %i tokens when the client set no limit', (effort, budget) => {
    expect(thinkingForEffort(effort, undefined)).toStrictEqual({ type: 'enabled', budget_tokens: budget });
  });

  it('turns thinking off explicitly for none, whatever the limit', () => {
    expect(thinkingForEffort('none', undefined)).toStrictEqual({ type: 'disabled' });
    expect(thinkingForEffort('none', 10)).toStrictEqual({ type: 'disabled' });
  });

  it('gives thinking at most half of a client-set limit and leaves it off below the 1024 minimum', () => {
    expect(thinkingForEffort('high', 10000)).toStrictEqual({ type: 'enabled', budget_tokens: 5000 });
    expect(thinkingForEffort('low', 64000)).toStrictEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(thinkingForEffort('medium', 2048)).toStrictEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(thinkingForEffort('medium', 2047)).toBeUndefined();
  });
});

describe('effortForThinking', () => {
  it('maps each forward budget of low, medium and high back to itself', () => {
    for (const effort of ['low', 'medium', 'high'] as const) {
      expect(effortForThinking({ type: 'enabled', budget_tokens: thinkingBudgetByEffort[effort] }, undefined)).toBe(
        effort,
      );
    }
  });

  it.each([
    [1024, 'low'],
    [4095, 'low'],
    [4096, 'medium'],
    [16383, 'medium'],
    [16384, 'high'],
    [60000, 'high'],
  ] as const)('maps a budget of %i tokens to %s', (budget, effort) => {
    expect(effortForThinking({ type: 'enabled', budget_tokens: budget }, undefined)).toBe(effort);
  });

  it('maps adaptive thinking and output_config.effort by name, capping at high', () => {
    expect(effortForThinking({ type: 'adaptive' }, 'medium')).toBe('medium');
    expect(effortForThinking({ type: 'adaptive' }, 'xhigh')).toBe('high');
    expect(effortForThinking(undefined, 'max')).toBe('high');
    expect(effortForThinking(undefined, 'low')).toBe('low');
  });

  it('sends no effort when thinking is off or nothing names one', () => {
    expect(effortForThinking({ type: 'disabled' }, 'high')).toBeUndefined();
    expect(effortForThinking({ type: 'adaptive' }, undefined)).toBeUndefined();
    expect(effortForThinking(undefined, undefined)).toBeUndefined();
  });
});
