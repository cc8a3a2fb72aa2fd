import { isoTimestamp } from '@gw/platform';
import type { Clock, Coord, Db, Keyring, Logger, Queryable } from '@gw/platform';
import { gatewayError } from '../errors.js';
import { addressKey } from '../identity/users/email-address.js';
import { SnapshotStore } from '../shared/replicated-snapshot.js';
import { sameRevision } from './limits.store.js';
import type { CapReset } from './period.js';
import type { CapEntryInput, CapPatch, CapsPut } from './user-caps.schema.js';

/** A stored cap entry; the webhook URL stays sealed until an alert is sent. */
export interface UserCap {
  user: string;
  monthlyTokens: number | null;
  maxUsd: number | null;
  softUsd: number | null;
  reset: CapReset;
  strict: boolean;
  alertThresholds: number[] | null;
  webhookSealed: string | null;
  /** The spelling the webhook URL was sealed for: the address, or the older spelling of a row the fold migration lowered. */
  webhookOwner: string;
  revision: number;
  updatedAt: string;
  updatedBy: string;
}

/** The whole map as every replica caches it. */
export interface CapsState {
  caps: ReadonlyMap<string, UserCap>;
  revision: number;
  updatedAt: string | null;
  alerts: { thresholdsPercent: number[] | null; webhookSealed: string | null };
  /** Addresses with cap rows in more than one spelling (the fold migration left them for an administrator). */
  addressConflicts: number;
}

interface CapRow {
  user_id: string;
  monthly_tokens: string | number | null;
  max_usd: string | number | null;
  soft_usd: string | number | null;
  reset: CapReset;
  strict: boolean;
  alert_thresholds: number[] | null;
  alert_webhook_sealed: string | null;
  webhook_sealed_for: string | null;
  revision: number;
  updated_by: string;
  updated_at: Date | string;
}

interface DocumentRow {
  document: { thresholdsPercent?: number[] | null } | null;
  secret_sealed: string | null;
  revision: number;
  updated_at: Date | string;
}

const documentName = 'user-caps';
const capColumns =
  'user_id, monthly_tokens, max_usd, soft_usd, reset, strict, alert_thresholds, alert_webhook_sealed, webhook_sealed_for, revision, updated_by, updated_at';
const numberOrNull = (value: string | number | null): number | null => (value === null ? null : Number(value));
const emptyState: CapsState = {
  caps: new Map(),
  revision: 0,
  updatedAt: null,
  alerts: { thresholdsPercent: null, webhookSealed: null },
  addressConflicts: 0,
};

function toCap(row: CapRow): UserCap {
  return {
    user: row.user_id,
    monthlyTokens: numberOrNull(row.monthly_tokens),
    maxUsd: numberOrNull(row.max_usd),
    softUsd: numberOrNull(row.soft_usd),
    reset: row.reset,
    strict: row.strict,
    alertThresholds: row.alert_thresholds,
    webhookSealed: row.alert_webhook_sealed,
    webhookOwner: row.webhook_sealed_for ?? row.user_id,
    revision: Number(row.revision),
    updatedAt: isoTimestamp(row.updated_at),
    updatedBy: row.updated_by,
  };
}

/** The contract `expectedRevision` is "any": a number or its string form matches; anything else is stale. */
function assertRevision(expected: unknown, current: number): void {
  if (expected === undefined) return;
  if (!sameRevision(expected, current))
    throw gatewayError('conflict', `expectedRevision is stale: the current revision is ${current}. Re-read and retry.`);
}

function assertSoftUnderMax(user: string, cap: Pick<UserCap, 'softUsd' | 'maxUsd'>): void {
  if (cap.softUsd !== null && cap.maxUsd !== null && cap.softUsd > cap.maxUsd)
    throw gatewayError('invalid_request', `body: softUsd of ${user} must not exceed maxUsd`);
}

/** True when an entry limits nothing and alerts nobody: it is removed rather than stored. */
const isEmpty = (cap: UserCap) =>
  cap.monthlyTokens === null &&
  cap.maxUsd === null &&
  cap.softUsd === null &&
  cap.alertThresholds === null &&
  cap.webhookSealed === null;

/**
 * Per-user caps. The request path reads the replica's cached map (`get`); writes run in one
 * transaction under the map row's lock, bump revisions, and invalidate every replica through Coord.
 */
export class UserCapStore extends SnapshotStore<CapsState> {
  constructor(
    private readonly db: Db,
    coord: Coord,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly keyring: Keyring,
  ) {
    super({
      channel: 'user-caps',
      initial: emptyState,
      coord,
      clock,
      logger,
      refreshIntervalMs: 15_000,
    });
  }

  protected loadSnapshot(): Promise<CapsState> {
    return this.read();
  }

  /** The cached entry of one user: the hot path never waits for the store. */
  get(user: string): UserCap | undefined {
    return this.snapshot.current.caps.get(addressKey(user));
  }

  state(): CapsState {
    return this.snapshot.current;
  }

  /** The cached caps once `condition` holds: resolves at the reload that brings the change (tests, replicas). */
  reached(condition: (state: CapsState) => boolean): Promise<CapsState> {
    return this.snapshot.reached(condition);
  }

  async read(db: Queryable = this.db): Promise<CapsState> {
    const [caps, documents] = await Promise.all([
      db.query<CapRow>(`SELECT ${capColumns} FROM gw_user_caps ORDER BY user_id`),
      db.query<DocumentRow>(
        'SELECT document, secret_sealed, revision, updated_at FROM gw_governance_documents WHERE name = $1',
        [documentName],
      ),
    ]);
    const document = documents.rows[0];
    const { map, conflicts } = byAddress(caps.rows.map(toCap));
    if (conflicts > 0)
      this.logger.warn(
        { addresses: conflicts },
        'cap rows name one address in more than one spelling; the lower-case row (else the first) applies until an administrator sets the cap (see /admin/health)',
      );
    return {
      caps: map,
      addressConflicts: conflicts,
      revision: document ? Number(document.revision) : 0,
      updatedAt: document ? isoTimestamp(document.updated_at) : null,
      alerts: {
        thresholdsPercent: document?.document?.thresholdsPercent ?? null,
        webhookSealed: document?.secret_sealed ?? null,
      },
    };
  }

  /** The webhook URL for an alert, unsealed only at send time. */
  unsealWebhook(sealed: string, user: string | null): string {
    return this.keyring.decryptString(sealed, webhookContext(user));
  }

  /** `PUT`: replace the whole map (users absent lose their entry); returns the new state. */
  async replace(body: CapsPut, actor: string): Promise<CapsState> {
    await this.db.transaction(async (tx) => {
      const current = await this.lockMap(tx);
      assertRevision(body.expectedRevision, current.revision);
      const stored = await this.read(tx);
      await tx.query('DELETE FROM gw_user_caps');
      await tx.query("DELETE FROM gw_address_conflicts WHERE scope = 'user-caps'");
      for (const [user, entry] of canonicalEntries(body.caps)) {
        const cap = this.merge(
          user,
          blankCap(user),
          { monthlyTokens: null, maxUsd: null, softUsd: null, reset: 'monthly', strict: false, alerts: null, ...entry },
          stored.caps.get(user) ?? null,
        );
        assertSoftUnderMax(user, cap);
        if (!isEmpty(cap))
          await this.upsert(tx, { ...cap, revision: (stored.caps.get(user)?.revision ?? 0) + 1 }, actor);
      }
      const alerts =
        body.alerts === undefined
          ? current.alerts
          : body.alerts === null
            ? { thresholdsPercent: null, webhookSealed: null }
            : {
                thresholdsPercent: body.alerts.thresholdsPercent ?? current.alerts.thresholdsPercent,
                webhookSealed: body.alerts.webhookUrl
                  ? this.keyring.encrypt(body.alerts.webhookUrl, webhookContext(null))
                  : current.alerts.webhookSealed,
              };
      await this.bumpMap(tx, alerts, actor);
    });
    await this.snapshot.changed();
    return this.snapshot.current;
  }

  /** `PATCH`: merge one entry; returns it, or null when the patch cleared everything (the entry is removed). */
  async patch(address: string, patch: CapPatch, actor: string): Promise<UserCap | null> {
    const user = addressKey(address);
    const result = await this.db.transaction(async (tx) => {
      const map = await this.lockMap(tx);
      const { rows } = await tx.query<CapRow>(
        `SELECT ${capColumns} FROM gw_user_caps WHERE lower(user_id) = $1 ORDER BY user_id = $1 DESC, user_id`,
        [user],
      );
      const existing = rows[0] ? { ...toCap(rows[0]), user } : undefined;
      assertRevision(patch.expectedRevision, existing?.revision ?? 0);
      const { expectedRevision: _ignored, ...fields } = patch;
      const merged = this.merge(user, existing ?? blankCap(user), fields, existing ?? null);
      assertSoftUnderMax(user, merged);
      const next = { ...merged, revision: (existing?.revision ?? 0) + 1 };
      // Setting an address's cap settles it: rows of its other spellings (a fold conflict) go.
      await tx.query('DELETE FROM gw_user_caps WHERE lower(user_id) = $1 AND user_id <> $1', [user]);
      await tx.query("DELETE FROM gw_address_conflicts WHERE scope = 'user-caps' AND address = $1", [user]);
      if (isEmpty(next)) await tx.query('DELETE FROM gw_user_caps WHERE user_id = $1', [user]);
      else await this.upsert(tx, next, actor);
      await this.bumpMap(tx, map.alerts, actor);
      return isEmpty(next) ? null : { ...next, updatedAt: new Date(this.clock.now()).toISOString(), updatedBy: actor };
    });
    await this.snapshot.changed();
    return result;
  }

  private merge(
    user: string,
    base: UserCap,
    fields: CapEntryInput,
    kept: Pick<UserCap, 'webhookSealed' | 'webhookOwner'> | null,
  ): UserCap {
    const cap: UserCap = {
      ...base,
      webhookSealed: kept?.webhookSealed ?? null,
      webhookOwner: kept?.webhookSealed ? kept.webhookOwner : user,
    };
    if (fields.monthlyTokens !== undefined) cap.monthlyTokens = fields.monthlyTokens;
    if (fields.maxUsd !== undefined) cap.maxUsd = fields.maxUsd;
    if (fields.softUsd !== undefined) cap.softUsd = fields.softUsd;
    if (fields.reset !== undefined) cap.reset = fields.reset;
    if (fields.strict !== undefined) cap.strict = fields.strict;
    if (fields.alerts === null) {
      cap.alertThresholds = null;
      cap.webhookSealed = null;
    } else if (fields.alerts !== undefined) {
      cap.alertThresholds = fields.alerts.thresholdsPercent ?? cap.alertThresholds;
      if (fields.alerts.webhookUrl) {
        cap.webhookSealed = this.keyring.encrypt(fields.alerts.webhookUrl, webhookContext(user));
        cap.webhookOwner = user;
      }
    }
    return cap;
  }

  private async lockMap(tx: Queryable): Promise<{ revision: number; alerts: CapsState['alerts'] }> {
    const { rows } = await tx.query<DocumentRow>(
      'SELECT document, secret_sealed, revision, updated_at FROM gw_governance_documents WHERE name = $1 FOR UPDATE',
      [documentName],
    );
    const row = rows[0];
    return {
      revision: row ? Number(row.revision) : 0,
      alerts: {
        thresholdsPercent: row?.document?.thresholdsPercent ?? null,
        webhookSealed: row?.secret_sealed ?? null,
      },
    };
  }

  private async bumpMap(tx: Queryable, alerts: CapsState['alerts'], actor: string): Promise<void> {
    await tx.query(
      `INSERT INTO gw_governance_documents (name, document, secret_sealed, revision, updated_by, updated_at) VALUES ($1, $2::jsonb, $3, 1, $4, $5)
       ON CONFLICT (name) DO UPDATE SET document = EXCLUDED.document, secret_sealed = EXCLUDED.secret_sealed, revision = gw_governance_documents.revision + 1,
         updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
      [
        documentName,
        JSON.stringify({ thresholdsPercent: alerts.thresholdsPercent }),
        alerts.webhookSealed,
        actor,
        new Date(this.clock.now()),
      ],
    );
  }

  private async upsert(tx: Queryable, cap: UserCap, actor: string): Promise<void> {
    await tx.query(
      `INSERT INTO gw_user_caps (${capColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (user_id) DO UPDATE SET monthly_tokens = EXCLUDED.monthly_tokens, max_usd = EXCLUDED.max_usd, soft_usd = EXCLUDED.soft_usd,
         reset = EXCLUDED.reset, strict = EXCLUDED.strict, alert_thresholds = EXCLUDED.alert_thresholds, alert_webhook_sealed = EXCLUDED.alert_webhook_sealed,
         webhook_sealed_for = EXCLUDED.webhook_sealed_for,
         revision = EXCLUDED.revision, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
      [
        cap.user,
        cap.monthlyTokens,
        cap.maxUsd,
        cap.softUsd,
        cap.reset,
        cap.strict,
        cap.alertThresholds,
        cap.webhookSealed,
        cap.webhookSealed && cap.webhookOwner !== cap.user ? cap.webhookOwner : null,
        cap.revision,
        actor,
        new Date(this.clock.now()),
      ],
    );
  }
}

/** A user with no limits: the base a first write merges into, and what a PATCH that cleared every limit shows. */
export function blankCap(user: string): UserCap {
  return {
    user,
    monthlyTokens: null,
    maxUsd: null,
    softUsd: null,
    reset: 'monthly',
    strict: false,
    alertThresholds: null,
    webhookSealed: null,
    webhookOwner: user,
    revision: 0,
    updatedAt: '',
    updatedBy: '',
  };
}

/**
 * The caps by address. Rows of one address in two spellings (left by the fold migration for an administrator) do not
 * merge: the lower-case row applies, else the first, and the address counts as a conflict.
 */
function byAddress(caps: UserCap[]): { map: Map<string, UserCap>; conflicts: number } {
  const map = new Map<string, UserCap>();
  const conflicted = new Set<string>();
  for (const cap of caps) {
    const address = addressKey(cap.user);
    const seen = map.get(address);
    if (seen) conflicted.add(address);
    if (!seen || cap.user === address) map.set(address, { ...cap, user: address });
  }
  return { map, conflicts: conflicted.size };
}

/** A map body's entries by address; two spellings of one address in one body are refused, never merged. */
function canonicalEntries<Entry>(caps: Record<string, Entry>): Array<[string, Entry]> {
  const seen = new Map<string, string>();
  return Object.entries(caps).map(([spelling, entry]) => {
    const address = addressKey(spelling);
    const earlier = seen.get(address);
    if (earlier !== undefined)
      throw gatewayError(
        'invalid_request',
        `body.caps names one address twice: "${earlier}" and "${spelling}" (addresses ignore case)`,
      );
    seen.set(address, spelling);
    return [address, entry];
  });
}

// Associated data binds a sealed URL to its owner, so a row copied to another user does not unseal.
const webhookContext = (user: string | null) => `cap-alert-webhook:${user ?? '*'}`;
