import { isoTimestamp } from '@gw/platform';
import { policyPushActor, type DeliveredCheckPayload, type SignedDeliveredCheck } from '@gw/contracts';
import type { Clock, Db, Queryable } from '@gw/platform';

/** A delivered check as stored: the envelope exactly as signed, and the administrator's switch. */
export interface StoredDeliveredCheck {
  checkId: string;
  revision: number;
  name: string;
  envelope: SignedDeliveredCheck;
  disabled: boolean;
  deliveredAt: string;
}

export interface DeliveredAuditEntry {
  at: string;
  actor: string;
  action: 'delivered' | 'refused' | 'withdrawn' | 'disabled' | 'enabled' | 'lane_off' | 'lane_on';
  checkId: string | null;
  revision: number | null;
  name: string | null;
  outcome: 'success' | 'failure';
  reason: string | null;
}

/** Why a verified delivery still cannot be stored; the whole delivery is refused. */
export class DeliveryConflict extends Error {
  constructor(
    readonly code: 'delivered_check_stale' | 'delivered_check_name_taken',
    readonly checkId: string,
    message: string,
  ) {
    super(message);
  }
}

interface CheckRow {
  check_id: string;
  revision: number;
  name: string;
  key_id: string;
  payload: string;
  signature: string;
  disabled: boolean;
  delivered_at: Date | string;
}

const toCheck = (row: CheckRow): StoredDeliveredCheck => ({
  checkId: row.check_id,
  revision: row.revision,
  name: row.name,
  envelope: { keyId: row.key_id, payload: row.payload, signature: row.signature },
  disabled: row.disabled,
  deliveredAt: isoTimestamp(row.delivered_at),
});

/** The policy-push lane's state per organization: its switch, the delivered checks, and their audit. */
export class DeliveredCheckStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async laneEnabled(orgId: string): Promise<boolean> {
    const { rows } = await this.db.query<{ enabled: boolean }>(
      'SELECT enabled FROM ev_delivered_lane WHERE org_id = $1',
      [orgId],
    );
    return rows[0]?.enabled ?? true;
  }

  async list(orgId: string): Promise<StoredDeliveredCheck[]> {
    const { rows } = await this.db.query<CheckRow>(
      'SELECT * FROM ev_delivered_checks WHERE org_id = $1 ORDER BY name',
      [orgId],
    );
    return rows.map(toCheck);
  }

  /**
   * Store a verified delivery whole, or nothing: a lower revision than the one held is stale, a name another check
   * already uses is taken. The same revision again changes nothing. Each stored check is audited as `gw-policy-push`.
   */
  async deliver(
    orgId: string,
    checks: ReadonlyArray<{ payload: DeliveredCheckPayload; envelope: SignedDeliveredCheck }>,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const at = new Date(this.clock.now());
      for (const { payload, envelope } of checks) {
        const { rows } = await tx.query<{ check_id: string; revision: number; name: string }>(
          'SELECT check_id, revision, name FROM ev_delivered_checks WHERE org_id = $1 AND (check_id = $2 OR name = $3) FOR UPDATE',
          [orgId, payload.id, payload.name],
        );
        const held = rows.find((row) => row.check_id === payload.id);
        if (rows.some((row) => row.check_id !== payload.id))
          throw new DeliveryConflict(
            'delivered_check_name_taken',
            payload.id,
            `another delivered check is already named ${payload.name}`,
          );
        if (held && held.revision > payload.revision)
          throw new DeliveryConflict(
            'delivered_check_stale',
            payload.id,
            `revision ${payload.revision} of ${payload.id} is older than the held revision ${held.revision}`,
          );
        await tx.query(
          `INSERT INTO ev_delivered_checks (org_id, check_id, revision, name, key_id, payload, signature, delivered_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
           ON CONFLICT (org_id, check_id) DO UPDATE SET revision = EXCLUDED.revision, name = EXCLUDED.name,
             key_id = EXCLUDED.key_id, payload = EXCLUDED.payload, signature = EXCLUDED.signature,
             delivered_at = EXCLUDED.delivered_at, updated_at = EXCLUDED.updated_at`,
          [orgId, payload.id, payload.revision, payload.name, envelope.keyId, envelope.payload, envelope.signature, at],
        );
        await this.audit(tx, orgId, {
          actor: policyPushActor,
          action: 'delivered',
          checkId: payload.id,
          revision: payload.revision,
          name: payload.name,
          outcome: 'success',
          reason: null,
        });
      }
    });
  }

  /** A refused delivery leaves one audit row per refused check (or one for the delivery), nothing else. */
  async refused(orgId: string, refusals: ReadonlyArray<{ checkId: string | null; reason: string }>): Promise<void> {
    for (const refusal of refusals)
      await this.audit(this.db, orgId, {
        actor: policyPushActor,
        action: 'refused',
        checkId: refusal.checkId,
        revision: null,
        name: null,
        outcome: 'failure',
        reason: refusal.reason,
      });
  }

  /** The per-check switch; null when the organization holds no such delivered check. */
  async setEnabled(orgId: string, checkId: string, enabled: boolean): Promise<StoredDeliveredCheck | null> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<CheckRow>(
        'UPDATE ev_delivered_checks SET disabled = $3, updated_at = $4 WHERE org_id = $1 AND check_id = $2 RETURNING *',
        [orgId, checkId, !enabled, new Date(this.clock.now())],
      );
      const row = rows[0];
      if (!row) return null;
      await this.audit(tx, orgId, {
        actor: 'admin',
        action: enabled ? 'enabled' : 'disabled',
        checkId,
        revision: row.revision,
        name: row.name,
        outcome: 'success',
        reason: null,
      });
      return toCheck(row);
    });
  }

  /** The lane switch. Off withdraws every delivered check (each audited) and answers how many went. */
  async setLane(orgId: string, enabled: boolean): Promise<number> {
    return this.db.transaction(async (tx) => {
      const at = new Date(this.clock.now());
      await tx.query(
        `INSERT INTO ev_delivered_lane (org_id, enabled, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (org_id) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at`,
        [orgId, enabled, at],
      );
      const withdrawn = enabled
        ? []
        : (
            await tx.query<{ check_id: string; revision: number; name: string }>(
              'DELETE FROM ev_delivered_checks WHERE org_id = $1 RETURNING check_id, revision, name',
              [orgId],
            )
          ).rows;
      const base = { actor: 'admin', outcome: 'success' as const, reason: null };
      await this.audit(tx, orgId, {
        ...base,
        action: enabled ? 'lane_on' : 'lane_off',
        checkId: null,
        revision: null,
        name: null,
      });
      for (const row of withdrawn)
        await this.audit(tx, orgId, {
          ...base,
          action: 'withdrawn',
          checkId: row.check_id,
          revision: row.revision,
          name: row.name,
        });
      return withdrawn.length;
    });
  }

  async auditLog(orgId: string, limit: number): Promise<DeliveredAuditEntry[]> {
    const { rows } = await this.db.query<{
      created_at: Date | string;
      actor: string;
      action: DeliveredAuditEntry['action'];
      check_id: string | null;
      revision: number | null;
      name: string | null;
      outcome: DeliveredAuditEntry['outcome'];
      reason: string | null;
    }>('SELECT * FROM ev_delivered_audit WHERE org_id = $1 ORDER BY id DESC LIMIT $2', [orgId, limit]);
    return rows.map((row) => ({
      at: isoTimestamp(row.created_at),
      actor: row.actor,
      action: row.action,
      checkId: row.check_id,
      revision: row.revision,
      name: row.name,
      outcome: row.outcome,
      reason: row.reason,
    }));
  }

  private async audit(db: Queryable, orgId: string, entry: Omit<DeliveredAuditEntry, 'at'>): Promise<void> {
    await db.query(
      `INSERT INTO ev_delivered_audit (org_id, created_at, actor, action, check_id, revision, name, outcome, reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        orgId,
        new Date(this.clock.now()),
        entry.actor,
        entry.action,
        entry.checkId,
        entry.revision,
        entry.name,
        entry.outcome,
        entry.reason,
      ],
    );
  }
}
