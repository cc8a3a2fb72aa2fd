import { randomToken, sha256Hex, type Clock, type Db, isoTimestamp } from '@gw/platform';
import type { EvidenceReport } from '../reports/report.schema.js';

export type PolicyResponse = 'pass' | 'fail' | 'unknown';

export interface Host {
  id: string;
  hostname: string | null;
  platform: string;
  source: string;
  lastEvidenceAt: string;
  createdAt: string;
}

export interface HostWithResults extends Host {
  results: Array<{ policyName: string; response: PolicyResponse; updatedAt: string }>;
}

interface HostRow {
  id: string;
  hostname: string | null;
  platform: string;
  source: string;
  last_evidence_at: Date | string;
  created_at: Date | string;
}

const hostColumns = 'id, hostname, platform, source, last_evidence_at, created_at';
const toHost = (row: HostRow): Host => ({
  id: row.id,
  hostname: row.hostname,
  platform: row.platform,
  source: row.source,
  lastEvidenceAt: isoTimestamp(row.last_evidence_at),
  createdAt: isoTimestamp(row.created_at),
});
const toResponse = (passing: boolean | null): PolicyResponse =>
  passing === null ? 'unknown' : passing ? 'pass' : 'fail';

/** The device identifier is never stored: only sha256 of "<source>:<device.id>". */
export function deviceHashOf(source: string, deviceId: string): string {
  return sha256Hex(`${source}:${deviceId}`);
}

/** Hosts and their current policy results. */
export class HostStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Replace a host's snapshot in one transaction: the host is created or refreshed, every enabled policy gets the
   * reported response or `unknown` when the report left it out, and results of policies no longer enabled go.
   */
  async applySnapshot(input: {
    orgId: string;
    source: string;
    report: EvidenceReport;
    enabledPolicies: readonly string[];
  }): Promise<Date> {
    const at = new Date(this.clock.now());
    const { device } = input.report;
    const reported = new Map(input.report.results.map((result) => [result.policyName, result.response]));
    await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO ev_hosts (id, org_id, device_hash, hostname, platform, source, last_evidence_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
         ON CONFLICT (org_id, device_hash) DO UPDATE SET hostname = COALESCE(EXCLUDED.hostname, ev_hosts.hostname),
           platform = CASE WHEN EXCLUDED.platform = 'unknown' THEN ev_hosts.platform ELSE EXCLUDED.platform END, last_evidence_at = EXCLUDED.last_evidence_at
         RETURNING id`,
        [
          `host_${randomToken(12)}`,
          input.orgId,
          deviceHashOf(input.source, device.id),
          device.hostname ?? null,
          device.platform ?? 'unknown',
          input.source,
          at,
        ],
      );
      const hostId = rows[0].id;
      await tx.query('DELETE FROM ev_policy_results WHERE host_id = $1', [hostId]);
      const names = [...input.enabledPolicies];
      if (names.length === 0) return;
      await tx.query(
        `INSERT INTO ev_policy_results (host_id, policy_name, passing, updated_at)
         SELECT $1, name, CASE response WHEN 'pass' THEN true WHEN 'fail' THEN false ELSE NULL END, $4
           FROM unnest($2::text[], $3::text[]) AS snapshot (name, response)`,
        [hostId, names, names.map((name) => reported.get(name) ?? 'unknown'), at],
      );
    });
    return at;
  }

  async list(orgId: string): Promise<Host[]> {
    return (
      await this.db.query<HostRow>(
        `SELECT ${hostColumns} FROM ev_hosts WHERE org_id = $1 ORDER BY last_evidence_at DESC, id`,
        [orgId],
      )
    ).rows.map(toHost);
  }

  async get(orgId: string, hostId: string): Promise<HostWithResults | null> {
    const { rows } = await this.db.query<HostRow>(`SELECT ${hostColumns} FROM ev_hosts WHERE org_id = $1 AND id = $2`, [
      orgId,
      hostId,
    ]);
    if (!rows[0]) return null;
    const results = await this.db.query<{ policy_name: string; passing: boolean | null; updated_at: Date | string }>(
      'SELECT policy_name, passing, updated_at FROM ev_policy_results WHERE host_id = $1 ORDER BY policy_name',
      [hostId],
    );
    return {
      ...toHost(rows[0]),
      results: results.rows.map((row) => ({
        policyName: row.policy_name,
        response: toResponse(row.passing),
        updatedAt: isoTimestamp(row.updated_at),
      })),
    };
  }

  /** Hosts with a result for the policy: failing first, then unknown, then passing. */
  async byPolicy(orgId: string, policyName: string): Promise<Array<Host & { response: PolicyResponse }>> {
    const { rows } = await this.db.query<HostRow & { passing: boolean | null }>(
      `SELECT h.id, h.hostname, h.platform, h.source, h.last_evidence_at, h.created_at, r.passing
         FROM ev_policy_results r JOIN ev_hosts h ON h.id = r.host_id
        WHERE h.org_id = $1 AND r.policy_name = $2
        ORDER BY (r.passing IS FALSE) DESC, (r.passing IS NULL) DESC, h.last_evidence_at DESC, h.id`,
      [orgId, policyName],
    );
    return rows.map((row) => ({ ...toHost(row), response: toResponse(row.passing) }));
  }

  /** Deleting a host removes its rows. */
  async delete(orgId: string, hostId: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM ev_hosts WHERE org_id = $1 AND id = $2', [orgId, hostId])).rowCount > 0;
  }

  /** Every reporting host's results since `since`, for the rollup. */
  async resultsSince(
    orgId: string,
    since: Date,
  ): Promise<Array<{ hostId: string; policyName: string; passing: boolean | null }>> {
    const { rows } = await this.db.query<{ host_id: string; policy_name: string; passing: boolean | null }>(
      `SELECT r.host_id, r.policy_name, r.passing FROM ev_policy_results r JOIN ev_hosts h ON h.id = r.host_id
        WHERE h.org_id = $1 AND h.last_evidence_at >= $2`,
      [orgId, since],
    );
    return rows.map((row) => ({ hostId: row.host_id, policyName: row.policy_name, passing: row.passing }));
  }

  async counts(orgId: string, since: Date): Promise<{ total: number; reporting: number }> {
    const { rows } = await this.db.query<{ total: string | number; reporting: string | number }>(
      'SELECT count(*) AS total, count(*) FILTER (WHERE last_evidence_at >= $2) AS reporting FROM ev_hosts WHERE org_id = $1',
      [orgId, since],
    );
    return { total: Number(rows[0]?.total ?? 0), reporting: Number(rows[0]?.reporting ?? 0) };
  }
}
