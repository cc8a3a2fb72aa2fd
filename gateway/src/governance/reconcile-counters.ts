import { addressKey } from '../identity/users/email-address.js';
import { randomUUID } from 'node:crypto';
import type { Clock, Coord, Db, Logger } from '@gw/platform';
import { counterKey, usageFields, type Subject, type UsageField } from './usage-counters.js';
import { counterTtlMs, monthPeriod, periodOf, type CapReset, type Period } from './period.js';
import type { UserCapStore } from './user-caps.store.js';

interface SumRow {
  id: string;
  tokens: string | number;
  cost_micros: string | number;
  savings_micros: string | number;
  tokens_saved: string | number;
  requests: string | number;
}

const sums = `COALESCE(sum(total_tokens), 0) AS tokens, COALESCE(sum(round(cost_usd * 1000000)), 0) AS cost_micros,
  COALESCE(sum(round(savings_usd * 1000000)), 0) AS savings_micros, COALESCE(sum(tokens_saved), 0) AS tokens_saved, count(*) AS requests`;
const columnOf: Record<UsageField, keyof SumRow> = {
  tokens: 'tokens',
  costMicros: 'cost_micros',
  savingsMicros: 'savings_micros',
  tokensSaved: 'tokens_saved',
  requests: 'requests',
};

interface Expected {
  key: string;
  value: number;
  period: Period;
}

/**
 * Counters reconcile with `gw_spend`: at boot and on a timer, each counter is raised to the sum of
 * stored rows when it is lower (increments lost to a Redis restart or an outage). Never lowered: a counter ahead of
 * the table is normal while spend rows wait in a writer's buffer. One replica reconciles per interval (Coord claim).
 */
export class CounterReconciler {
  private timer: NodeJS.Timeout | null = null;
  private readonly replica = randomUUID();

  constructor(
    private readonly deps: {
      db: Db;
      coord: Coord;
      clock: Clock;
      logger: Logger;
      caps: UserCapStore;
      onCorrection: (count: number) => void;
      intervalMs?: number;
    },
  ) {}

  start(): void {
    const intervalMs = this.deps.intervalMs ?? 5 * 60_000;
    void this.runGuarded();
    this.timer = setInterval(() => void this.runGuarded(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async runGuarded(): Promise<void> {
    try {
      const claimed = await this.deps.coord.setIfAbsent(
        'gov:reconcile:claim',
        this.replica,
        Math.max((this.deps.intervalMs ?? 5 * 60_000) * 0.8, 1_000),
      );
      if (claimed) await this.runOnce();
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'usage counter reconciliation failed; will retry');
    }
  }

  /** Reconcile every month counter and every capped user's cadence counters; returns the corrections made. */
  async runOnce(): Promise<number> {
    const now = this.deps.clock.now();
    const month = monthPeriod(now);
    const users = await this.deps.db.query<SumRow>(
      `SELECT lower(user_id) AS id, ${sums} FROM gw_spend WHERE outcome = 'success' AND ts >= $1 AND ts < $2 AND user_id IS NOT NULL AND key_type IS DISTINCT FROM 'service' GROUP BY lower(user_id)`,
      [new Date(month.start), new Date(month.end as number)],
    );
    const keys = await this.deps.db.query<SumRow>(
      `SELECT key_id AS id, ${sums} FROM gw_spend WHERE outcome = 'success' AND ts >= $1 AND ts < $2 AND key_type = 'service' AND key_id IS NOT NULL GROUP BY key_id`,
      [new Date(month.start), new Date(month.end as number)],
    );
    const expected = [
      ...expectations(users.rows, 'user', month, usageFields),
      ...expectations(keys.rows, 'key', month, usageFields),
    ];
    const cadenced = [...this.deps.caps.state().caps.values()].filter((cap) => cap.reset !== 'monthly');
    expected.push(
      ...(await this.cadenceExpectations(
        cadenced.map((cap) => ({ user: cap.user, reset: cap.reset })),
        now,
      )),
    );
    return this.raise(expected, now);
  }

  /** After a cap write: bring the users' cadence counters up to the stored rows of the current period. */
  async reconcileUsers(entries: ReadonlyArray<{ user: string; reset: CapReset }>): Promise<number> {
    const now = this.deps.clock.now();
    return this.raise(await this.cadenceExpectations(entries, now), now);
  }

  private async cadenceExpectations(
    entries: ReadonlyArray<{ user: string; reset: CapReset }>,
    now: number,
  ): Promise<Expected[]> {
    const expected: Expected[] = [];
    for (const reset of ['daily', 'weekly', 'monthly', 'never'] as const) {
      const users = entries.filter((entry) => entry.reset === reset).map((entry) => entry.user);
      if (users.length === 0) continue;
      const period = periodOf(reset, now);
      const { rows } = await this.deps.db.query<SumRow>(
        `SELECT lower(user_id) AS id, ${sums} FROM gw_spend WHERE outcome = 'success' AND ts >= $1 AND ($2::timestamptz IS NULL OR ts < $2) AND lower(user_id) = ANY($3) AND key_type IS DISTINCT FROM 'service' GROUP BY lower(user_id)`,
        [new Date(period.start), period.end === null ? null : new Date(period.end), users.map(addressKey)],
      );
      expected.push(...expectations(rows, 'user', period, ['tokens', 'costMicros']));
    }
    return expected;
  }

  private async raise(expected: readonly Expected[], now: number): Promise<number> {
    let corrections = 0;
    for (let offset = 0; offset < expected.length; offset += 500) {
      const chunk = expected.slice(offset, offset + 500);
      const current = await this.deps.coord.getCounters(chunk.map((entry) => entry.key));
      const raises = chunk.flatMap((entry, index) => {
        const missing = entry.value - (current[index] ?? 0);
        return missing > 0 ? [{ key: entry.key, delta: missing, ttlMs: counterTtlMs(entry.period, now) }] : [];
      });
      if (raises.length > 0) await this.deps.coord.incrementMany(raises);
      corrections += raises.length;
    }
    if (corrections > 0) {
      this.deps.onCorrection(corrections);
      this.deps.logger.info({ corrections }, 'usage counters raised to the gw_spend sums');
    }
    return corrections;
  }
}

function expectations(
  rows: readonly SumRow[],
  kind: Subject['kind'],
  period: Period,
  fields: readonly UsageField[],
): Expected[] {
  return rows.flatMap((row) =>
    fields.map((field) => ({
      key: counterKey({ kind, id: row.id }, period, field),
      value: Number(row[columnOf[field]]),
      period,
    })),
  );
}
