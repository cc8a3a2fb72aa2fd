import { isoInstant } from '@gw/platform';
import type { Clock, Db } from '@gw/platform';
import type { SeatRef } from './seat.js';

export interface HookSavingsTotals {
  tokensSaved: number;
  savingsMicros: number;
  events: number;
}

const dayOf = (epochMs: number) => isoInstant(epochMs).slice(0, 10);

/** Hook-trim savings per seat and UTC day, summed for `GET /connect/savings`. */
export class HookSavingsStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async record(ref: SeatRef, tokensSaved: number, savingsMicros: number): Promise<void> {
    await this.db.query(
      `INSERT INTO gw_hook_savings (tenant, seat, day, tokens_saved, savings_micros, events) VALUES ($1, $2, $3::date, $4, $5, 1)
       ON CONFLICT (tenant, seat, day) DO UPDATE SET tokens_saved = gw_hook_savings.tokens_saved + EXCLUDED.tokens_saved,
         savings_micros = gw_hook_savings.savings_micros + EXCLUDED.savings_micros, events = gw_hook_savings.events + 1`,
      [ref.tenant, ref.seat, dayOf(this.clock.now()), tokensSaved, savingsMicros],
    );
  }

  /** Totals from the UTC day of `sinceMs` on (undefined: all time). */
  async totals(ref: SeatRef, sinceMs?: number): Promise<HookSavingsTotals> {
    const values: unknown[] = [ref.tenant, ref.seat];
    const since = sinceMs === undefined ? '' : ` AND day >= $${values.push(dayOf(sinceMs))}::date`;
    const { rows } = await this.db.query<Record<string, string | number | null>>(
      `SELECT COALESCE(sum(tokens_saved), 0) AS tokens, COALESCE(sum(savings_micros), 0) AS micros, COALESCE(sum(events), 0) AS events
         FROM gw_hook_savings WHERE tenant = $1 AND seat = $2${since}`,
      values,
    );
    const row = rows[0] ?? {};
    return {
      tokensSaved: Number(row.tokens ?? 0),
      savingsMicros: Number(row.micros ?? 0),
      events: Number(row.events ?? 0),
    };
  }
}
