import type { Clock, Coord, Db, Logger } from '@gw/platform';
import { gatewayErrors } from '../errors.js';
import { ReplicatedSnapshot } from '../shared/replicated-snapshot.js';
import { desktopPolicySettings, type DesktopPolicySettings, type DesktopPolicyView } from './desktop-policy.schema.js';

interface PolicyRow {
  document: { enabled?: boolean; settings?: unknown };
  revision: number;
  updated_at: Date | string;
  updated_by: string;
}

const policyName = 'claude-desktop';

/** Before the first write: disabled and empty (the bootstrap endpoint answers 404, spec 000 §4.3). */
const unset: DesktopPolicyView = { enabled: false, settings: {}, revision: 0, updatedAt: null, updatedBy: null };

/**
 * The desktop-client policy (spec 000 §2). `current()` is the replica's cached copy for client-facing reads; admin
 * reads go to the store; a write bumps the revision under a row lock and invalidates every replica through Coord.
 */
export class DesktopPolicyStore {
  private readonly snapshot: ReplicatedSnapshot<DesktopPolicyView>;

  constructor(
    private readonly db: Db,
    coord: Coord,
    private readonly clock: Clock,
    logger: Logger,
  ) {
    this.snapshot = new ReplicatedSnapshot({ channel: 'desktop-policy', initial: unset, load: () => this.read(), coord, clock, logger });
  }

  start(): Promise<void> {
    return this.snapshot.start();
  }

  stop(): Promise<void> {
    return this.snapshot.stop();
  }

  /** The cached policy; never a store round trip. */
  current(): DesktopPolicyView {
    return this.snapshot.current;
  }

  /** Fresh from the store. */
  async read(): Promise<DesktopPolicyView> {
    const { rows } = await this.db.query<PolicyRow>('SELECT document, revision, updated_at, updated_by FROM gw_policies WHERE name = $1', [policyName]);
    const row = rows[0];
    if (!row) return unset;
    return {
      enabled: row.document.enabled === true,
      settings: desktopPolicySettings.parse(row.document.settings ?? {}),
      revision: Number(row.revision),
      updatedAt: new Date(row.updated_at).toISOString(),
      updatedBy: row.updated_by,
    };
  }

  /** Replaces the policy; 409 when `expectedRevision` is given and stale. The caller has validated the document. */
  async replace(policy: { enabled: boolean; settings: DesktopPolicySettings }, expectedRevision: number | undefined, actor: string): Promise<DesktopPolicyView> {
    await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ revision: number }>('SELECT revision FROM gw_policies WHERE name = $1 FOR UPDATE', [policyName]);
      const revision = rows[0] ? Number(rows[0].revision) : 0;
      if (expectedRevision !== undefined && expectedRevision !== revision) {
        throw gatewayErrors.conflict(`the desktop policy is at revision ${revision}, not ${expectedRevision}; read it again and retry`);
      }
      await tx.query(
        `INSERT INTO gw_policies (name, document, revision, updated_by, updated_at) VALUES ($1, $2::jsonb, 1, $3, $4)
         ON CONFLICT (name) DO UPDATE SET document = EXCLUDED.document, revision = gw_policies.revision + 1,
           updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
        [policyName, JSON.stringify(policy), actor, new Date(this.clock.now())],
      );
    });
    await this.snapshot.changed();
    return this.read();
  }
}
