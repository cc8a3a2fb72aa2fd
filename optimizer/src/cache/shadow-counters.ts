import type { Clock, Db } from '@gw/platform';
import { storeReadTimeoutMs, withTimeout } from '../store/with-timeout.js';

/** What the shadow tier counts: every lookup, its exact hits, and how many compared answers were identical. */
export interface ShadowCounts {
  lookups: number;
  hits: number;
  compared: number;
  identical: number;
}

/** The `semanticCacheShadow` block of the settings view. */
export interface ShadowTelemetry {
  lookups: number;
  hits: number;
  strictPrecision: number | null;
  /** True when the figures are the fleet's, read from the shared store; false when they are this replica's. */
  durable: boolean;
}

/** Replicas flush their counters this often. */
export const shadowFlushMs = 30_000;

const zero = (): ShadowCounts => ({ lookups: 0, hits: 0, compared: 0, identical: 0 });
const fields = ['lookups', 'hits', 'compared', 'identical'] as const;

/**
 * The semantic cache's shadow counters. Counts accumulate in memory; every 30
 * seconds the unflushed part is added to the shared store's row for the day, and only what was written leaves the
 * remainder (counts arriving during the write stay). The view is the fleet total since the first flushed day plus
 * this replica's unflushed remainder (`durable: true`) when the store answers within the read bound, else this
 * replica's own counts since it started (`durable: false`). Counts are never lost to an unreachable store: they
 * wait for the next flush.
 */
export class ShadowCounters {
  private readonly total = zero();
  private readonly unflushed = zero();
  private flushing: Promise<boolean> | null = null;

  constructor(
    private readonly clock: Clock,
    /** The fleet read is on the settings GET: past this the view falls back to this replica's own counts. */
    private readonly readTimeoutMs = storeReadTimeoutMs,
  ) {}

  lookup(hit: boolean): void {
    this.bump('lookups');
    if (hit) this.bump('hits');
  }

  /** A live answer was compared with the fingerprint an exact hit would have served. */
  compare(identical: boolean): void {
    this.bump('compared');
    if (identical) this.bump('identical');
  }

  /**
   * Adds the unflushed counts to the store; false when there was nothing to write or the write failed. One write at
   * a time: a flush at shutdown that overlapped the timer's would otherwise add the same counts twice.
   */
  async flush(db: Db | null): Promise<boolean> {
    while (this.flushing) await this.flushing;
    this.flushing = this.write(db);
    try {
      return await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  private async write(db: Db | null): Promise<boolean> {
    if (!db || fields.every((field) => this.unflushed[field] === 0)) return false;
    const written = { ...this.unflushed };
    try {
      await db.query(
        `INSERT INTO optimizer_cache_shadow (day, lookups, hits, compared, identical) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (day) DO UPDATE SET lookups = optimizer_cache_shadow.lookups + EXCLUDED.lookups,
           hits = optimizer_cache_shadow.hits + EXCLUDED.hits, compared = optimizer_cache_shadow.compared + EXCLUDED.compared,
           identical = optimizer_cache_shadow.identical + EXCLUDED.identical`,
        [
          new Date(this.clock.now()).toISOString().slice(0, 10),
          written.lookups,
          written.hits,
          written.compared,
          written.identical,
        ],
      );
    } catch {
      return false;
    }
    for (const field of fields) this.unflushed[field] -= written[field];
    return true;
  }

  async telemetry(db: Db | null): Promise<ShadowTelemetry> {
    const fleet = db ? await readFleet(db, this.readTimeoutMs) : null;
    if (!fleet) return view(this.total, false);
    return view(
      {
        lookups: fleet.lookups + this.unflushed.lookups,
        hits: fleet.hits + this.unflushed.hits,
        compared: fleet.compared + this.unflushed.compared,
        identical: fleet.identical + this.unflushed.identical,
      },
      true,
    );
  }

  private bump(field: keyof ShadowCounts): void {
    this.total[field] += 1;
    this.unflushed[field] += 1;
  }
}

async function readFleet(db: Db, timeoutMs: number): Promise<ShadowCounts | null> {
  try {
    const { rows } = await withTimeout(
      db.query<ShadowCounts>(
        `SELECT COALESCE(sum(lookups), 0)::bigint AS lookups, COALESCE(sum(hits), 0)::bigint AS hits,
                COALESCE(sum(compared), 0)::bigint AS compared, COALESCE(sum(identical), 0)::bigint AS identical
           FROM optimizer_cache_shadow`,
      ),
      timeoutMs,
    );
    const row = rows[0];
    return row
      ? {
          lookups: Number(row.lookups),
          hits: Number(row.hits),
          compared: Number(row.compared),
          identical: Number(row.identical),
        }
      : null;
  } catch {
    return null;
  }
}

function view(counts: ShadowCounts, durable: boolean): ShadowTelemetry {
  return {
    lookups: counts.lookups,
    hits: counts.hits,
    strictPrecision: counts.compared === 0 ? null : counts.identical / counts.compared,
    durable,
  };
}
