import { describe, expect, it } from 'vitest';
import { alertPayload, reachedThresholds } from './cap-alerts.js';
import { periodOf } from './period.js';

const cap = { monthlyTokens: 1_000, maxUsd: 10, softUsd: null };

describe('reachedThresholds', () => {
  it.each([
    ['below every threshold', { tokens: 799, costMicros: 7_999_999 }, []],
    ['80% of tokens', { tokens: 800, costMicros: 0 }, ['tokens:80']],
    [
      'both thresholds of both limits',
      { tokens: 1_200, costMicros: 10_000_000 },
      ['tokens:80', 'tokens:100', 'usd:80', 'usd:100'],
    ],
  ] as const)('%s', (_name, usage, expected) => {
    expect(
      reachedThresholds(cap, [80, 100], usage).map((crossing) => `${crossing.kind}:${crossing.thresholdPercent}`),
    ).toEqual(expected);
  });

  it('alerts once past softUsd, and ignores limits that are not set', () => {
    expect(
      reachedThresholds({ monthlyTokens: null, maxUsd: null, softUsd: 2 }, [80], {
        tokens: 9e9,
        costMicros: 2_000_000,
      }).map((crossing) => crossing.kind),
    ).toEqual(['soft']);
  });
});

describe('alertPayload', () => {
  it('is Slack-readable text plus a content-free event', () => {
    const period = periodOf('monthly', Date.UTC(2026, 10, 23));
    const payload = alertPayload(
      'ada@example.com',
      { kind: 'usd', thresholdPercent: 80, used: 8_000_000, limit: 10_000_000 },
      period,
    );
    expect(payload.text).toBe(
      'gw: ada@example.com has used 80% of their USD budget ($8.00 of $10.00). It resets at 2026-12-01T00:00:00.000Z.',
    );
    expect(payload).toMatchObject({
      event: 'user_cap.threshold_reached',
      kind: 'usd',
      thresholdPercent: 80,
      used: 8,
      limit: 10,
      period: 'm2026-11',
    });
  });
});
