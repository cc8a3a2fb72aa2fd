import { isoInstant } from '@gw/platform';
import { monthPeriod, previousMonthPeriod } from '../period.js';

/** The contract `window` of the spend reports; `mtd` is the current UTC calendar month. */
export const spendWindows = ['mtd', 'prev-month', '24h', '7d', '30d', '90d'] as const;
export type SpendWindow = (typeof spendWindows)[number];

const dayMs = 86_400_000;
export const maxRangeDays = 400;

export interface TimeRange {
  start: number;
  end: number;
}

/** The half-open UTC interval a window covers at `now`; rolling windows include the current millisecond. */
export function windowRange(window: SpendWindow, now: number): TimeRange {
  switch (window) {
    case 'mtd': {
      const month = monthPeriod(now);
      return { start: month.start, end: month.end as number };
    }
    case 'prev-month': {
      const previous = previousMonthPeriod(now);
      return { start: previous.start, end: previous.end as number };
    }
    case '24h':
      return { start: now - dayMs + 1, end: now + 1 };
    default:
      return { start: now - Number.parseInt(window, 10) * dayMs + 1, end: now + 1 };
  }
}

export const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** `from`/`to` are inclusive UTC days; each replaces its side of the window. */
export function reportRange(window: SpendWindow, now: number, from?: string, to?: string): TimeRange {
  const base = windowRange(window, now);
  return { start: from ? dayStart(from) : base.start, end: to ? dayStart(to) + dayMs : base.end };
}

export const utcDayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day (`2026-02-30` is not). */
export function isUtcDay(value: string): boolean {
  if (!utcDayPattern.test(value)) return false;
  const at = dayStart(value);
  return Number.isFinite(at) && isoInstant(at).slice(0, 10) === value;
}
