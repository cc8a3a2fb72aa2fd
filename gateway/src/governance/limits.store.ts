import { isoTimestamp } from '@gw/platform';
import type { Clock, Coord, Db, Logger } from '@gw/platform';
import { gatewayError } from '../errors.js';
import { SnapshotStore } from '../shared/replicated-snapshot.js';
import {
  defaultLimits,
  effectiveLimits,
  limitsDocument,
  type EffectiveLimits,
  type LimitsDocument,
} from './limits.schema.js';

export interface StoredLimits {
  limits: LimitsDocument;
  revision: number;
  updatedAt: string | null;
  updatedBy: string | null;
}

interface Row {
  document: unknown;
  revision: number;
  updated_at: Date | string;
  updated_by: string;
}

const documentName = 'limits';

/** The contract `expectedRevision` is "any": the number or its string form matches; anything else is stale. */
export function sameRevision(expected: unknown, current: number): boolean {
  return (typeof expected === 'number' || typeof expected === 'string') && String(expected) === String(current);
}

/** Rate and concurrency limits (our design for the contract's "values: not shown"); cached on every replica. */
export class LimitsStore extends SnapshotStore<StoredLimits> {
  constructor(
    private readonly db: Db,
    coord: Coord,
    private readonly clock: Clock,
    logger: Logger,
  ) {
    super({
      channel: 'limits',
      initial: { limits: defaultLimits, revision: 0, updatedAt: null, updatedBy: null },
      coord,
      clock,
      logger,
      refreshIntervalMs: 15_000,
    });
  }

  protected loadSnapshot(): Promise<StoredLimits> {
    return this.read();
  }

  /** Cached effective limits of one key; never a store round trip. */
  effective(keyId: string, user: string | null): EffectiveLimits {
    return effectiveLimits(this.snapshot.current.limits, keyId, user);
  }

  async read(): Promise<StoredLimits> {
    const { rows } = await this.db.query<Row>(
      'SELECT document, revision, updated_at, updated_by FROM gw_governance_documents WHERE name = $1',
      [documentName],
    );
    const row = rows[0];
    if (!row) return { limits: defaultLimits, revision: 0, updatedAt: null, updatedBy: null };
    // A document written by an older release parses field by field rather than failing every request.
    const parsed = limitsDocument.safeParse(row.document);
    return {
      limits: parsed.success ? parsed.data : defaultLimits,
      revision: Number(row.revision),
      updatedAt: isoTimestamp(row.updated_at),
      updatedBy: row.updated_by,
    };
  }

  /** Replace the document; a stale `expectedRevision` answers 409. */
  async replace(limits: LimitsDocument, expectedRevision: unknown, actor: string): Promise<StoredLimits> {
    await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ revision: number }>(
        'SELECT revision FROM gw_governance_documents WHERE name = $1 FOR UPDATE',
        [documentName],
      );
      const current = rows[0] ? Number(rows[0].revision) : 0;
      if (expectedRevision !== undefined && !sameRevision(expectedRevision, current))
        throw gatewayError('conflict', `expectedRevision is stale: the current revision is ${current}`);
      await tx.query(
        `INSERT INTO gw_governance_documents (name, document, revision, updated_by, updated_at) VALUES ($1, $2::jsonb, 1, $3, $4)
         ON CONFLICT (name) DO UPDATE SET document = EXCLUDED.document, revision = gw_governance_documents.revision + 1, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
        [documentName, JSON.stringify(limits), actor, new Date(this.clock.now())],
      );
    });
    await this.snapshot.changed();
    return this.snapshot.current;
  }

  current(): StoredLimits {
    return this.snapshot.current;
  }

  /** The cached limits once `condition` holds: resolves at the reload that brings the change (tests, replicas). */
  reached(condition: (stored: StoredLimits) => boolean): Promise<StoredLimits> {
    return this.snapshot.reached(condition);
  }
}
