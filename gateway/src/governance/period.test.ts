import { describe, expect, it } from 'vitest';
import { counterTtlMs, monthPeriod, periodOf, previousMonthPeriod } from './period.js';

const at = (iso: string) => Date.parse(iso);

describe('UTC periods of caps and budgets', () => {
  it.each([
    ['monthly', '2026-11-30T23:59:59.999Z', 'm2026-11', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
    ['monthly', '2026-12-31T12:00:00Z', 'm2026-12', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['daily', '2026-11-23T00:00:00Z', 'd2026-11-23', '2026-11-23T00:00:00.000Z', '2026-11-24T00:00:00.000Z'],
    // 2026-11-23 is a Monday; the Sunday after still belongs to its week.
    ['weekly', '2026-11-29T23:00:00Z', 'w2026-11-23', '2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
    ['weekly', '2026-11-23T00:00:00Z', 'w2026-11-23', '2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
    ['weekly', '2027-01-01T10:00:00Z', 'w2026-12-28', '2026-12-28T00:00:00.000Z', '2027-01-04T00:00:00.000Z'],
  ] as const)('%s at %s is %s', (reset, instant, id, start, end) => {
    const period = periodOf(reset, at(instant));
    expect(period.id).toBe(id);
    expect(new Date(period.start).toISOString()).toBe(start);
    expect(new Date(period.end as number).toISOString()).toBe(end);
  });

  it('never resets: one period forever, counters without expiry', () => {
    const period = periodOf('never', at('2026-11-23T00:00:00Z'));
    expect(period).toEqual({ id: 'all', start: 0, end: null });
    expect(counterTtlMs(period, Date.now())).toBeUndefined();
  });

  it('keeps a month counter two days past the month end', () => {
    const now = at('2026-11-30T00:00:00Z');
    expect(counterTtlMs(monthPeriod(now), now)).toBe(3 * 86_400_000);
  });

  it('answers each instant with its own month, whichever month was asked before', () => {
    const instants = [
      '2026-11-30T23:59:59.999Z',
      '2026-12-01T00:00:00.000Z',
      '2026-11-01T00:00:00.000Z',
      '2026-10-31T23:59:59.999Z',
    ];
    const ids = [...instants, ...[...instants].reverse()].map((instant) => monthPeriod(at(instant)).id);
    expect(ids).toEqual([
      'm2026-11',
      'm2026-12',
      'm2026-11',
      'm2026-10',
      'm2026-10',
      'm2026-11',
      'm2026-12',
      'm2026-11',
    ]);
  });

  it('knows the previous month across a year boundary', () => {
    expect(previousMonthPeriod(at('2026-01-10T00:00:00Z')).id).toBe('m2025-12');
  });
});
