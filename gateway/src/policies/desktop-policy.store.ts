import type { Clock, Coord, Db, Logger } from '@gw/platform';
import { SnapshotStore } from '../shared/replicated-snapshot.js';
import { readPolicyDocument, replacePolicyDocument } from './policy-documents.js';
import { desktopPolicySettings, type DesktopPolicySettings, type DesktopPolicyView } from './desktop-policy.schema.js';

const policyName = 'claude-desktop';

/** Before the first write: disabled and empty (the bootstrap endpoint answers 404). */
const unset: DesktopPolicyView = { enabled: false, settings: {}, revision: 0, updatedAt: null, updatedBy: null };

/**
 * The desktop-client policy. `current()` is the replica's cached copy for client-facing reads; admin
 * reads go to the store; a write bumps the revision under a row lock and invalidates every replica through Coord.
 */
export class DesktopPolicyStore extends SnapshotStore<DesktopPolicyView> {
  constructor(
    private readonly db: Db,
    coord: Coord,
    private readonly clock: Clock,
    logger: Logger,
  ) {
    super({
      channel: 'desktop-policy',
      initial: unset,
      coord,
      clock,
      logger,
    });
  }

  protected loadSnapshot(): Promise<DesktopPolicyView> {
    return this.read();
  }

  /** The cached policy; never a store round trip. */
  current(): DesktopPolicyView {
    return this.snapshot.current;
  }

  /** The cached policy once `condition` holds: resolves at the reload that brings the change (tests, replicas). */
  reached(condition: (view: DesktopPolicyView) => boolean): Promise<DesktopPolicyView> {
    return this.snapshot.reached(condition);
  }

  /** Fresh from the store. */
  async read(): Promise<DesktopPolicyView> {
    const row = await readPolicyDocument(this.db, policyName);
    if (!row) return unset;
    const document = row.document as { enabled?: boolean; settings?: unknown };
    return {
      enabled: document.enabled === true,
      settings: desktopPolicySettings.parse(document.settings ?? {}),
      revision: row.revision,
      updatedAt: row.updatedAt,
      updatedBy: row.updatedBy,
    };
  }

  /** Replaces the policy; 409 when `expectedRevision` is given and stale. The caller has validated the document. */
  async replace(
    policy: { enabled: boolean; settings: DesktopPolicySettings },
    expectedRevision: number | undefined,
    actor: string,
  ): Promise<DesktopPolicyView> {
    await replacePolicyDocument(this.db, {
      name: policyName,
      label: 'desktop policy',
      document: policy,
      expectedRevision,
      actor,
      at: new Date(this.clock.now()),
    });
    await this.snapshot.changed();
    return this.read();
  }
}
