import { meterReport, type MeterReport } from '@gw/contracts';
import { isoOrNull, type Queryable } from '@gw/platform';

export type ReportState = 'pending' | 'accepted' | 'failed';

/** One usage report as the metering audit lane shows it. */
export interface MeteringReportView {
  id: string;
  windowStart: string;
  windowEnd: string;
  heartbeatTier: MeterReport['heartbeatTier'];
  state: ReportState;
  httpStatus: number | null;
  errorCode: string | null;
  leaseStatus: string | null;
  leaseExpiresAt: string | null;
  attemptedAt: string;
  /** The content-free payload exactly as sent. */
  report: MeterReport;
}

interface ReportRow {
  id: string;
  window_start: Date | string;
  window_end: Date | string;
  heartbeat_tier: MeterReport['heartbeatTier'];
  state: ReportState;
  http_status: number | null;
  error_code: string | null;
  lease_status: string | null;
  lease_expires_at: Date | string | null;
  attempted_at: Date | string;
  report: unknown;
}

const columns =
  'id, window_start, window_end, heartbeat_tier, state, http_status, error_code, lease_status, lease_expires_at, attempted_at, report';

function viewOf(row: ReportRow): MeteringReportView {
  return {
    id: row.id,
    windowStart: isoOrNull(row.window_start) as string,
    windowEnd: isoOrNull(row.window_end) as string,
    heartbeatTier: row.heartbeat_tier,
    state: row.state,
    httpStatus: row.http_status,
    errorCode: row.error_code,
    leaseStatus: row.lease_status,
    leaseExpiresAt: isoOrNull(row.lease_expires_at),
    attemptedAt: isoOrNull(row.attempted_at) as string,
    report: meterReport.parse(typeof row.report === 'string' ? JSON.parse(row.report) : row.report),
  };
}

/** The reports sent to billing: the lane's cursor (the last accepted window's end) and its audit trail. */
export class MeteringReportStore {
  constructor(private readonly db: Queryable) {}

  /**
   * The next window, on the store's clock (every replica and every spend row agree on it): it starts where the last
   * accepted one ended (else where the first unanswered one started, else at the first spend row, else now) and ends
   * `settleMs` ago, so a batch still committing is left to the next window rather than missed.
   */
  async nextWindow(settleMs: number): Promise<{ start: Date; end: Date }> {
    const { rows } = await this.db.query<{ start: Date | string | null; end: Date | string }>(
      `SELECT coalesce(
                (SELECT max(window_end) FROM gw_metering_reports WHERE state = 'accepted'),
                (SELECT min(window_start) FROM gw_metering_reports),
                (SELECT min(recorded_at) FROM gw_spend)) AS start,
              now() - $1 * interval '1 millisecond' AS end`,
      [settleMs],
    );
    const end = new Date(rows[0]?.end ?? Date.now());
    const start = rows[0]?.start ? new Date(rows[0].start) : end;
    return { start: start < end ? start : end, end };
  }

  /** A report of that window sent before without an answer (failed, or cut short by a crash): resent as it was. */
  async unsettledAt(windowStart: Date): Promise<MeteringReportView | null> {
    const { rows } = await this.db.query<ReportRow>(
      `SELECT ${columns} FROM gw_metering_reports WHERE state <> 'accepted' AND window_start = $1 ORDER BY attempted_at DESC LIMIT 1`,
      [windowStart],
    );
    return rows[0] ? viewOf(rows[0]) : null;
  }

  async recordAttempt(report: MeterReport, attemptedAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO gw_metering_reports (id, window_start, window_end, heartbeat_tier, state, report, attempted_at) VALUES ($1, $2, $3, $4, 'pending', $5, $6)
       ON CONFLICT (id) DO UPDATE SET state = 'pending', attempted_at = EXCLUDED.attempted_at`,
      [
        report.reportId,
        report.window.start,
        report.window.end,
        report.heartbeatTier,
        JSON.stringify(report),
        attemptedAt,
      ],
    );
  }

  async markAccepted(id: string, lease: { status: string; expiresAt: string }): Promise<void> {
    await this.db.query(
      `UPDATE gw_metering_reports SET state = 'accepted', http_status = 200, error_code = NULL, lease_status = $2, lease_expires_at = $3 WHERE id = $1`,
      [id, lease.status, lease.expiresAt],
    );
  }

  async markFailed(id: string, failure: { httpStatus: number | null; errorCode: string }): Promise<void> {
    await this.db.query(
      `UPDATE gw_metering_reports SET state = 'failed', http_status = $2, error_code = $3 WHERE id = $1`,
      [id, failure.httpStatus, failure.errorCode],
    );
  }

  /** Reports kept for the audit lane: a year and a month, then dropped (one row per interval otherwise grows forever). */
  async prune(): Promise<void> {
    // The newest accepted report stays whatever its age: it is where the next window starts.
    await this.db.query(
      `DELETE FROM gw_metering_reports WHERE state = 'accepted' AND attempted_at < now() - interval '400 days'
         AND window_end < (SELECT max(window_end) FROM gw_metering_reports WHERE state = 'accepted')`,
    );
  }

  async lastAccepted(): Promise<MeteringReportView | null> {
    const { rows } = await this.db.query<ReportRow>(
      `SELECT ${columns} FROM gw_metering_reports WHERE state = 'accepted' ORDER BY window_end DESC LIMIT 1`,
    );
    return rows[0] ? viewOf(rows[0]) : null;
  }

  /** Newest attempts first. */
  async recent(limit: number): Promise<MeteringReportView[]> {
    const { rows } = await this.db.query<ReportRow>(
      `SELECT ${columns} FROM gw_metering_reports ORDER BY attempted_at DESC, window_end DESC, id DESC LIMIT $1`,
      [limit],
    );
    return rows.map(viewOf);
  }
}
