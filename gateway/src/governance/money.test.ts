import { describe, expect, it } from 'vitest';
import { capStatusOf } from './cap-views.js';
import { limitMicros, toMicros } from './money.js';

describe('money', () => {
  it('keeps a positive limit under half a micro-dollar positive, so nothing spent is under it', () => {
    expect(toMicros(0.0000004)).toBe(0);
    expect(limitMicros(0.0000004)).toBe(1);
    expect(limitMicros(0)).toBe(0);
    expect(limitMicros(12.5)).toBe(12_500_000);
    expect(capStatusOf({ monthlyTokens: null, maxUsd: 0.0000004, softUsd: null }, { tokens: 0, costMicros: 0 })).toBe(
      'under',
    );
    expect(capStatusOf({ monthlyTokens: null, maxUsd: 0.0000004, softUsd: null }, { tokens: 10, costMicros: 1 })).toBe(
      'over',
    );
    expect(capStatusOf({ monthlyTokens: null, maxUsd: 0, softUsd: null }, { tokens: 0, costMicros: 0 })).toBe('over');
  });
});
