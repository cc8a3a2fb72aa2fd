import type { CapReset } from '@gw/contracts/management';

// A cap's reset cadence is part of the Management API, declared once in contracts; every period boundary is UTC.
export type { CapReset };

/** One counting period: `id` names counters, `end` is when the next one starts (null for `never`). */
export interface Period {
  readonly id: string;
  readonly start: number;
  readonly end: number | null;
}

const dayMs = 86_400_000;
const pad = (value: number) => String(value).padStart(2, '0');
const dayId = (at: Date) => `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;

// Every call asks for its month (admission, metering); the answer changes once a month, so the last one is kept.
let latestMonth: Period | null = null;

/** The UTC calendar month containing `at` (service-key budgets; the default cap cadence). */
export function monthPeriod(at: number): Period {
  if (latestMonth !== null && at >= latestMonth.start && at < (latestMonth.end as number)) return latestMonth;
  const date = new Date(at);
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const month: Period = {
    id: `m${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}`,
    start,
    end: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1),
  };
  latestMonth = month;
  return month;
}

/** The previous UTC calendar month. */
export function previousMonthPeriod(at: number): Period {
  return monthPeriod(monthPeriod(at).start - 1);
}

/** The period of a cap with the given cadence: UTC day, ISO week (Monday 00:00 UTC), UTC month, or forever. */
export function periodOf(reset: CapReset, at: number): Period {
  switch (reset) {
    case 'monthly':
      return monthPeriod(at);
    case 'daily': {
      const start = Math.floor(at / dayMs) * dayMs;
      return { id: `d${dayId(new Date(start))}`, start, end: start + dayMs };
    }
    case 'weekly': {
      const dayStart = Math.floor(at / dayMs) * dayMs;
      // getUTCDay: Sunday 0 … Saturday 6; ISO weeks start on Monday.
      const start = dayStart - ((new Date(dayStart).getUTCDay() + 6) % 7) * dayMs;
      return { id: `w${dayId(new Date(start))}`, start, end: start + 7 * dayMs };
    }
    case 'never':
      return { id: 'all', start: 0, end: null };
  }
}

/** Counter lifetime: the rest of the period plus two days, so late records and reports still find it. */
export function counterTtlMs(period: Period, now: number): number | undefined {
  return period.end === null ? undefined : Math.max(period.end - now, 0) + 2 * dayMs;
}

/** `YYYY-MM-DD` of a UTC instant. */
export function utcDay(at: number): string {
  return dayId(new Date(at));
}
