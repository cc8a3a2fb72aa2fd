import type { Clock, Db, Logger, Queryable } from '@gw/platform';
import { randomToken, isoTimestamp } from '@gw/platform';
import { afterCursor, decodeCursor, pageOf } from '../paging.js';
import { PendingWork } from '../../shared/pending-work.js';
import type { AuditEvent, AuthEvent } from './audit.schema.js';

export interface AuditEntryInput {
  category: string;
  action: string;
  actor: string;
  target?: string | null;
  subject?: string | null;
  requestId?: string | null;
  outcome: 'success' | 'failure';
  status?: number | null;
  details?: Record<string, string | number | boolean | null>;
}

/** A reason-coded rejection on the request path (identity, admission); stored in the `auth` category. */
export interface AuthRejectionInput {
  code: string;
  user?: string | null;
  keyId?: string | null;
  endpoint?: string | null;
  status: number;
  hint?: string | null;
  requestId?: string | null;
}

interface AuditRow {
  id: string;
  created_at: Date | string;
  category: string;
  action: string;
  actor: string;
  target: string | null;
  subject_user: string | null;
  request_id: string | null;
  outcome: 'success' | 'failure';
  status: number | null;
  details: Record<string, unknown> | null;
}

const columns = 'id, created_at, category, action, actor, target, subject_user, request_id, outcome, status, details';
export const authCategory = 'auth';

function toEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    at: isoTimestamp(row.created_at),
    category: row.category,
    action: row.action,
    actor: row.actor,
    target: row.target,
    subject: row.subject_user,
    requestId: row.request_id,
    outcome: row.outcome,
    status: row.status === null ? null : Number(row.status),
    details: row.details ?? {},
  };
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The audit trail. Timestamps come from the injected clock at millisecond precision, which keeps the
 * (created_at, id) keyset cursor exact.
 */
export class AuditStore {
  private readonly offPath = new PendingWork();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async record(entry: AuditEntryInput): Promise<void> {
    const text = (value: string | null | undefined) => (value == null ? null : storable(value));
    await this.db.query(
      `INSERT INTO gw_audit_events (id, created_at, category, action, actor, target, subject_user, request_id, outcome, status, details)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        `aud_${randomToken(12)}`,
        new Date(this.clock.now()),
        entry.category,
        entry.action,
        text(entry.actor),
        text(entry.target),
        text(entry.subject),
        text(entry.requestId),
        entry.outcome,
        entry.status ?? null,
        JSON.stringify(entry.details ?? {}, (_key, value: unknown) =>
          typeof value === 'string' ? storable(value) : value,
        ),
      ],
    );
  }

  /** For the identity and admission stages: one reason-coded rejection, content-free. */
  recordAuthRejection(input: AuthRejectionInput): Promise<void> {
    // Callers do not wait for it (it is off the response path): tracked so `written()` can.
    return this.offPath.track(
      this.record({
        category: authCategory,
        action: input.code,
        actor: input.keyId ? `key:${input.keyId}` : 'anonymous',
        target: input.keyId ?? null,
        subject: input.user ?? null,
        requestId: input.requestId ?? null,
        outcome: 'failure',
        status: input.status,
        details: { endpoint: input.endpoint ?? null, hint: input.hint ?? null },
      }),
    );
  }

  /** Resolves once every auth rejection recorded so far is written (or failed). */
  written(): Promise<void> {
    return this.offPath.settled();
  }

  /** Newest first; `cursor` is the `next_cursor` of the previous page. */
  async list(query: {
    limit: number;
    cursor?: string | undefined;
    category?: string | undefined;
  }): Promise<{ data: AuditEvent[]; nextCursor: string | null }> {
    const values: unknown[] = [];
    const conditions: string[] = [];
    if (query.category) {
      values.push(query.category);
      conditions.push(`category = $${values.length}`);
    }
    const after = afterCursor(query.cursor ? decodeCursor(query.cursor) : null, values);
    if (after) conditions.push(after);
    values.push(query.limit + 1);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const { rows } = await this.db.query<AuditRow>(
      `SELECT ${columns} FROM gw_audit_events ${where} ORDER BY created_at DESC, id DESC LIMIT $${values.length}`,
      values,
    );
    const page = pageOf(rows, query.limit);
    return { data: page.rows.map(toEvent), nextCursor: page.nextCursor };
  }

  async listAuthEvents(query: { user?: string | undefined; limit: number }): Promise<AuthEvent[]> {
    const values: unknown[] = [authCategory];
    let where = 'category = $1';
    if (query.user) {
      values.push(query.user);
      where += ` AND subject_user = $${values.length}`;
    }
    values.push(query.limit);
    const { rows } = await this.db.query<AuditRow>(
      `SELECT ${columns} FROM gw_audit_events WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${values.length}`,
      values,
    );
    return rows.map((row) => ({
      id: row.id,
      at: isoTimestamp(row.created_at),
      code: row.action,
      user: row.subject_user,
      keyId: row.target,
      endpoint: stringOrNull(row.details?.endpoint),
      status: row.status === null ? null : Number(row.status),
      hint: stringOrNull(row.details?.hint),
    }));
  }

  /** Every entry about a developer, or made by them through a console session (GDPR export). */
  async aboutUser(user: string, db: Queryable = this.db): Promise<AuditEvent[]> {
    const { rows } = await db.query<AuditRow>(
      `SELECT ${columns} FROM gw_audit_events WHERE subject_user = $1 OR target = $1 OR actor = $2 ORDER BY created_at, id`,
      [user, `sso:${user}`],
    );
    return rows.map(toEvent);
  }

  /** GDPR erase: replace the developer's identifier with a pseudonym wherever it appears; the trail itself stays. */
  async anonymiseUser(user: string, pseudonym: string, db: Queryable = this.db): Promise<number> {
    const { rowCount } = await db.query(
      `UPDATE gw_audit_events
          SET subject_user = CASE WHEN subject_user = $1 THEN $3 ELSE subject_user END,
              target = CASE WHEN target = $1 THEN $3 ELSE target END,
              actor = CASE WHEN actor = $2 THEN $4 ELSE actor END
        WHERE subject_user = $1 OR target = $1 OR actor = $2`,
      [user, `sso:${user}`, pseudonym, `sso:${pseudonym}`],
    );
    return rowCount;
  }
}

/**
 * Postgres text cannot hold U+0000, and an entry about a refused request may quote what the caller sent (a target id
 * from the path): the character is kept visible as U+FFFD so the entry is stored rather than lost.
 */
function storable(value: string): string {
  return value.replaceAll('\u0000', '\ufffd');
}

/** Wraps the store so an audit write failure is logged, never turned into a failed admin response. */
export function safeAuditRecorder(store: AuditStore, logger: Logger): (entry: AuditEntryInput) => Promise<void> {
  return async (entry) => {
    try {
      await store.record(entry);
    } catch (error) {
      // The entry is content-free, so the log line can carry it: the trail is recoverable from logs.
      logger.error({ err: error, audit: entry }, 'audit entry not stored');
    }
  };
}
