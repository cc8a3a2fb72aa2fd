import { isoInstant } from '@gw/platform';
import type { DailyModelTotal, ReportWindow } from './usage-report.types.js';

const dayMs = 86_400_000;

/** A report row the vendor did not attribute to a model (a tool fee, a null `line_item`). */
export const unattributedModel = '(unattributed)';

export const dayOf = (epochMs: number): string => isoInstant(epochMs).slice(0, 10);
export const dayStartMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);
export const addDays = (day: string, days: number): string => dayOf(dayStartMs(day) + days * dayMs);

/** Accumulates vendor rows into one total per UTC day and model. */
export class DailyTotals {
  private readonly totals = new Map<string, DailyModelTotal>();

  constructor(private readonly window: ReportWindow) {}

  private at(day: string, model: string): DailyModelTotal | null {
    // Buckets outside the asked window are the vendor's rounding; they belong to another sync.
    if (day < this.window.startDay || day >= this.window.endDay) return null;
    const key = `${day}\u0000${model}`;
    let total = this.totals.get(key);
    if (!total) {
      total = { day, model, requests: null, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, costMicros: 0 };
      this.totals.set(key, total);
    }
    return total;
  }

  addUsage(
    day: string,
    model: string | null | undefined,
    usage: { requests?: number | undefined; inputTokens: number; outputTokens: number; cachedInputTokens: number },
  ): void {
    const total = this.at(day, model || unattributedModel);
    if (!total) return;
    if (usage.requests !== undefined) total.requests = (total.requests ?? 0) + usage.requests;
    total.inputTokens += usage.inputTokens;
    total.outputTokens += usage.outputTokens;
    total.cachedInputTokens += usage.cachedInputTokens;
  }

  addCost(day: string, model: string | null | undefined, costUsd: number): void {
    const total = this.at(day, model || unattributedModel);
    if (total) total.costMicros += Math.round(costUsd * 1_000_000);
  }

  list(): DailyModelTotal[] {
    return [...this.totals.values()].sort(
      (left, right) => left.day.localeCompare(right.day) || left.model.localeCompare(right.model),
    );
  }
}
