import { isoInstant, isoTimestamp } from '@gw/platform';
import type { Clock, Db, Logger } from '@gw/platform';

const dayMs = 24 * 60 * 60_000;
/** Hourly: retention is counted in days, so an hour's lag is the most a sealed body outlives its term. */
const purgeIntervalMs = 60 * 60_000;

export interface ContentRetentionDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  retentionDays: () => number;
}

/**
 * Purges stored content past the deployment's retention: trace bodies are dropped, their content-free metadata stays
 * (spend and traces keep answering usage questions). Every replica may run it; the statement is idempotent.
 */
export class ContentRetention {
  private timer: NodeJS.Timeout | null = null;
  private last: { at: string; purged: number } | null = null;

  constructor(private readonly deps: ContentRetentionDeps) {}

  start(): void {
    void this.purge();
    this.timer = setInterval(() => void this.purge(), purgeIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  lastPurge(): { at: string; purged: number } | null {
    return this.last;
  }

  /** One pass; returns how many traces lost their content (0 when the store is down: the next pass retries). */
  async purge(): Promise<number> {
    const now = this.deps.clock.now();
    const cutoff = new Date(now - this.deps.retentionDays() * dayMs);
    try {
      const { rowCount } = await this.deps.db.query(
        'UPDATE gw_traces SET content_sealed = NULL WHERE content_sealed IS NOT NULL AND created_at < $1',
        [cutoff],
      );
      this.last = { at: isoInstant(now), purged: rowCount };
      if (rowCount > 0)
        this.deps.logger.info(
          { purged: rowCount, retentionDays: this.deps.retentionDays() },
          'purged stored content past its retention',
        );
      return rowCount;
    } catch (error) {
      this.deps.logger.warn(
        { errName: error instanceof Error ? error.name : 'unknown' },
        'content retention purge failed; retried within the hour',
      );
      return 0;
    }
  }

  /** What is held now, for the content settings view. */
  async stored(): Promise<{ traces: number; oldest: string | null }> {
    const { rows } = await this.deps.db.query<{ traces: string | number; oldest: Date | string | null }>(
      'SELECT count(*) AS traces, min(created_at) AS oldest FROM gw_traces WHERE content_sealed IS NOT NULL',
    );
    const row = rows[0];
    return { traces: Number(row?.traces ?? 0), oldest: row?.oldest ? isoTimestamp(row.oldest) : null };
  }
}
