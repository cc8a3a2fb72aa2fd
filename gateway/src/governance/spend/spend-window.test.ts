import { describe, expect, it } from 'vitest';
import { isUtcDay, reportRange, windowRange } from './spend-window.js';

const now = Date.parse('2026-11-23T12:00:00Z');
const iso = (range: { start: number; end: number }) => [
  new Date(range.start).toISOString(),
  new Date(range.end).toISOString(),
];

describe('spend report windows', () => {
  it.each([
    ['mtd', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
    ['prev-month', '2026-10-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z'],
    ['24h', '2026-11-22T12:00:00.001Z', '2026-11-23T12:00:00.001Z'],
    ['7d', '2026-11-16T12:00:00.001Z', '2026-11-23T12:00:00.001Z'],
    ['90d', '2026-08-25T12:00:00.001Z', '2026-11-23T12:00:00.001Z'],
  ] as const)('%s', (window, start, end) => {
    expect(iso(windowRange(window, now))).toEqual([start, end]);
  });

  it('treats from and to as inclusive UTC days, each replacing its side of the window', () => {
    expect(iso(reportRange('mtd', now, '2026-11-02', '2026-11-03'))).toEqual([
      '2026-11-02T00:00:00.000Z',
      '2026-11-04T00:00:00.000Z',
    ]);
    expect(iso(reportRange('7d', now, '2026-11-10'))).toEqual(['2026-11-10T00:00:00.000Z', '2026-11-23T12:00:00.001Z']);
  });

  it.each([
    ['2026-11-23', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-1-01', false],
  ])('%s is a UTC day: %s', (value, valid) => {
    expect(isUtcDay(value)).toBe(valid);
  });
});
