import { randomUUID } from 'node:crypto';
import type { Clock, Db, Queryable } from '@gw/platform';
import { remediationLimits } from './remediation-limits.js';
import {
  rowToRemediation,
  remediationColumns,
  type Remediation,
  type RemediationRow,
  type RemediationTrigger,
} from './remediation-row.js';

export interface QueueRemediation {
  orgId: string;
  hostId: string;
  policyName: string;
  scriptName: string;
  trigger: RemediationTrigger;
}

export interface ScriptOutcome {
  exitCode: number;
  /** The agent killed the script at its deadline. */
  timedOut: boolean;
  /** Already truncated and sealed by the output vault, or null when retention is off. */
  sealedOutput: string | null;
}

// A row the agent may fetch now: never leased, or its lease ran out with attempts left, and inside its lifetime.
const deliverable = `(status = 'pending' OR (status = 'delivered' AND lease_expires_at <= $2 AND attempts < ${remediationLimits.maxAttempts})) AND expires_at > $2`;

/**
 * The remediation queue and its audit: bounded at-least-once delivery with a ten-minute lease, at
 * most three attempts and a 24-hour lifetime. Rows are never deleted here: a finished, exhausted or expired execution
 * stays as audit; only its retained output ages out.
 */
export class RemediationStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Queue the script, or return the execution already open for this host and check (one at a time). */
  async queue(input: QueueRemediation): Promise<{ remediation: Remediation; created: boolean }> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      await this.settle(tx, { hostId: input.hostId }, now);
      // The host row lock serialises two admins queueing the same check at once.
      await tx.query('SELECT id FROM ev_hosts WHERE id = $1 FOR UPDATE', [input.hostId]);
      const open = await tx.query<RemediationRow>(
        `SELECT ${remediationColumns} FROM ev_remediations WHERE host_id = $1 AND policy_name = $2 AND status IN ('pending', 'delivered') ORDER BY sequence DESC LIMIT 1`,
        [input.hostId, input.policyName],
      );
      if (open.rows[0]) return { remediation: rowToRemediation(open.rows[0], now), created: false };
      const { rows } = await tx.query<RemediationRow>(
        `INSERT INTO ev_remediations (execution_id, org_id, host_id, policy_name, script_name, trigger, status, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8) RETURNING ${remediationColumns}`,
        [
          randomUUID(),
          input.orgId,
          input.hostId,
          input.policyName,
          input.scriptName,
          input.trigger,
          new Date(now + remediationLimits.lifetimeMs),
          new Date(now),
        ],
      );
      return { remediation: rowToRemediation(rows[0], now), created: true };
    });
  }

  /**
   * Queue a check's script because its result failed (trigger `policy`), unless one is open for this host and check or
   * the last automatic one is younger than `cooldownMs`: a check a script cannot fix is not retried every check-in.
   */
  async queueAutomatic(input: Omit<QueueRemediation, 'trigger'>, cooldownMs: number): Promise<Remediation | null> {
    const since = new Date(this.clock.now() - cooldownMs);
    const { rows } = await this.db.query<{ recent: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ev_remediations WHERE host_id = $1 AND policy_name = $2 AND trigger = 'policy' AND created_at > $3) AS recent`,
      [input.hostId, input.policyName, since],
    );
    if (rows[0]?.recent) return null;
    const queued = await this.queue({ ...input, trigger: 'policy' });
    return queued.created ? queued.remediation : null;
  }

  /** The execution ids the host's agent should fetch now, oldest first (orbit's `pending_script_execution_ids`). */
  async pendingFor(hostId: string): Promise<string[]> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      await this.settle(tx, { hostId }, now);
      const { rows } = await tx.query<{ execution_id: string }>(
        `SELECT execution_id FROM ev_remediations WHERE host_id = $1 AND ${deliverable} ORDER BY sequence`,
        [hostId, new Date(now)],
      );
      return rows.map((row) => row.execution_id);
    });
  }

  /**
   * Hand the script to the host's agent: a deliverable execution starts a new attempt under a fresh lease; the same
   * agent fetching again inside its live lease gets it again without spending an attempt. Null when the execution is
   * not this host's or can no longer run.
   */
  async lease(hostId: string, executionId: string): Promise<Remediation | null> {
    const now = this.clock.now();
    const at = new Date(now);
    return this.db.transaction(async (tx) => {
      await this.settle(tx, { hostId }, now);
      const { rows } = await tx.query<RemediationRow>(
        `UPDATE ev_remediations SET status = 'delivered', attempts = attempts + 1, lease_expires_at = $3
          WHERE host_id = $1 AND execution_id = $4 AND ${deliverable} RETURNING ${remediationColumns}`,
        [hostId, at, new Date(now + remediationLimits.leaseMs), executionId],
      );
      if (rows[0]) return rowToRemediation(rows[0], now);
      const held = await tx.query<RemediationRow>(
        `SELECT ${remediationColumns} FROM ev_remediations WHERE host_id = $1 AND execution_id = $2 AND status = 'delivered' AND lease_expires_at > $3 AND expires_at > $3`,
        [hostId, executionId, at],
      );
      return held.rows[0] ? rowToRemediation(held.rows[0], now) : null;
    });
  }

  /**
   * Record the agent's result. Delivery is at-least-once, so a result for an execution that already finished is a
   * duplicate and changes nothing; a late result whose lease ran out still counts while the execution is open.
   */
  async complete(
    hostId: string,
    executionId: string,
    outcome: ScriptOutcome,
  ): Promise<'recorded' | 'duplicate' | 'unknown'> {
    const now = this.clock.now();
    const status = outcome.timedOut ? 'timed_out' : outcome.exitCode === 0 ? 'ran' : 'error';
    return this.db.transaction(async (tx) => {
      // Close what ran out first: a result arriving after the lifetime or the last lease is too late, whatever else
      // happened to be read in between.
      await this.settle(tx, { hostId }, now);
      const { rows } = await tx.query<{ execution_id: string }>(
        `UPDATE ev_remediations SET status = $3, exit_code = $4, completed_at = $5, lease_expires_at = NULL, output_sealed = $6, output_expires_at = $7
          WHERE host_id = $1 AND execution_id = $2 AND status = 'delivered' RETURNING execution_id`,
        [
          hostId,
          executionId,
          status,
          outcome.exitCode,
          new Date(now),
          outcome.sealedOutput,
          outcome.sealedOutput === null ? null : new Date(now + remediationLimits.outputRetentionMs),
        ],
      );
      if (rows[0]) return 'recorded';
      const known = await tx.query('SELECT 1 FROM ev_remediations WHERE host_id = $1 AND execution_id = $2', [
        hostId,
        executionId,
      ]);
      return known.rows.length > 0 ? 'duplicate' : 'unknown';
    });
  }

  /** An administrator disabled the check: its open executions are cancelled, so no agent runs them any more. */
  async cancelOpen(orgId: string, policyName: string): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE ev_remediations SET status = 'cancelled', lease_expires_at = NULL, completed_at = $3 WHERE org_id = $1 AND policy_name = $2 AND status IN ('pending', 'delivered')`,
      [orgId, policyName, new Date(this.clock.now())],
    );
    return rowCount;
  }

  async list(orgId: string, options: { hostId?: string | undefined; limit: number }): Promise<Remediation[]> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      await this.settle(tx, { orgId }, now);
      const { rows } = await tx.query<RemediationRow>(
        `SELECT ${remediationColumns} FROM ev_remediations WHERE org_id = $1 AND ($2::text IS NULL OR host_id = $2) ORDER BY sequence DESC LIMIT $3`,
        [orgId, options.hostId ?? null, options.limit],
      );
      return rows.map((row) => rowToRemediation(row, now));
    });
  }

  /** One execution, with its sealed output when held; `outputExpired` once retained output passed its 30 days. */
  async get(
    orgId: string,
    executionId: string,
  ): Promise<{ remediation: Remediation; sealedOutput: string | null; outputExpired: boolean } | null> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      await this.settle(tx, { orgId }, now);
      const { rows } = await tx.query<RemediationRow & { output_sealed: string | null }>(
        `SELECT ${remediationColumns}, output_sealed FROM ev_remediations WHERE org_id = $1 AND execution_id = $2`,
        [orgId, executionId],
      );
      const row = rows[0];
      if (!row) return null;
      const outputExpired = row.output_expires_at !== null && new Date(row.output_expires_at).getTime() <= now;
      return {
        remediation: rowToRemediation(row, now),
        sealedOutput: outputExpired ? null : row.output_sealed,
        outputExpired,
      };
    });
  }

  /**
   * Close what ran out, for one host (delivery) or one organization (audit reads): past its lifetime → expired; lease
   * over with no attempt left → exhausted. An organization-wide settle also drops output past its 30 days; the audit
   * row stays.
   */
  private async settle(tx: Queryable, scope: { hostId: string } | { orgId: string }, now: number): Promise<void> {
    const at = new Date(now);
    const [column, id] = 'hostId' in scope ? ['host_id', scope.hostId] : ['org_id', scope.orgId];
    await tx.query(
      `UPDATE ev_remediations SET status = 'expired', lease_expires_at = NULL, completed_at = $2 WHERE ${column} = $1 AND status IN ('pending', 'delivered') AND expires_at <= $2`,
      [id, at],
    );
    await tx.query(
      `UPDATE ev_remediations SET status = 'exhausted', lease_expires_at = NULL, completed_at = $2 WHERE ${column} = $1 AND status = 'delivered' AND lease_expires_at <= $2 AND attempts >= ${remediationLimits.maxAttempts}`,
      [id, at],
    );
    if (column === 'org_id')
      await tx.query(
        'UPDATE ev_remediations SET output_sealed = NULL WHERE org_id = $1 AND output_expires_at <= $2 AND output_sealed IS NOT NULL',
        [id, at],
      );
  }
}
