import { describe, expect, it } from 'vitest';
import { isActivated, nextActivation, normalizeInstant } from './activation.js';
import { disabledKinds } from './kill-switch.js';

const now = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('activation rule', () => {
  it('normalizes offsets and lowercase separators to UTC', () => {
    expect(normalizeInstant('2026-01-15t13:00:00+01:00')).toBe('2026-01-15T12:00:00.000Z');
    expect(normalizeInstant('2026-13-45T00:00:00Z')).toBeNull();
  });

  it('needs a 60-second lead the first time and is immutable afterwards', () => {
    expect(() => nextActivation(undefined, new Date(now + 59_999).toISOString(), now)).toThrow(/60 seconds/);
    expect(nextActivation(undefined, new Date(now + 60_000).toISOString(), now)).toBe(
      new Date(now + 60_000).toISOString(),
    );
    const set = '2026-01-15T12:05:00.000Z';
    expect(nextActivation(set, undefined, now)).toBe(set);
    expect(nextActivation(set, '2026-01-15T07:05:00-05:00', now)).toBe(set);
    expect(() => nextActivation(set, '2026-01-15T12:06:00Z', now)).toThrow(/immutable/);
    expect(() => nextActivation(set, null, now)).toThrow(/immutable/);
    expect(isActivated(set, Date.parse(set) - 1)).toBe(false);
    expect(isActivated(set, Date.parse(set))).toBe(true);
  });
});

describe('kill switches', () => {
  const toggles = [
    { kind: 'json_minify', enabled: false },
    { kind: 'json_minify', enabled: true, endpoint: '/v1/messages' },
    { kind: 'log_fold', enabled: false, model: 'gpt-4o', team: 'core' },
    { kind: 'log_fold', enabled: true, model: 'gpt-4o' },
  ];

  it('lets the most specific matching entry win', () => {
    expect(
      [...disabledKinds(toggles, { endpoint: '/v1/chat/completions', model: 'gpt-4o', team: 'core' })].sort(),
    ).toEqual(['json_minify', 'log_fold']);
    expect([...disabledKinds(toggles, { endpoint: '/v1/messages', model: 'gpt-4o', team: 'web' })]).toEqual([]);
  });

  it('lets a later entry of equal specificity override an earlier one', () => {
    expect([
      ...disabledKinds(
        [
          { kind: 'a', enabled: false },
          { kind: 'a', enabled: true },
        ],
        { endpoint: '/x' },
      ),
    ]).toEqual([]);
  });
});
