import type { Clock, Coord, Db, Logger } from '@gw/platform';
import { SnapshotStore } from '../shared/replicated-snapshot.js';

import type { ModelFacts } from '../providers/pricing/known-models.js';
import type { CacheSettings } from './cache-settings.js';

export interface DefaultRouting {
  defaultProvider: string | null;
  /** Model used when a request names none (`gw-default` on the seat lane). */
  defaultModel?: string | null;
  /** Routing config applied when a request selects nothing itself (raw, as stored; normalised on read). */
  config?: Record<string, unknown> | null;
  /** Response cache settings for every request (`routing/cache-settings.ts`). */
  cache?: CacheSettings | null;
}

export interface ModelAlias {
  provider: string;
  model: string;
}

/** Routing documents by name: `default`, `aliases` (alias → provider and model), `models` (pricing and ceilings). */
export interface RoutingDocuments {
  default: DefaultRouting;
  aliases: Record<string, ModelAlias>;
  models: Record<string, ModelFacts>;
}

const empty: RoutingDocuments = { default: { defaultProvider: null }, aliases: {}, models: {} };

interface RoutingRow {
  name: string;
  document: unknown;
  revision: number;
}

export class RoutingStore extends SnapshotStore<RoutingDocuments> {
  constructor(
    private readonly db: Db,
    coord: Coord,
    private readonly clock: Clock,
    logger: Logger,
  ) {
    super({
      channel: 'routing',
      initial: empty,
      coord,
      clock,
      logger,
    });
  }

  protected loadSnapshot(): Promise<RoutingDocuments> {
    return this.load();
  }

  get documents(): RoutingDocuments {
    return this.snapshot.current;
  }

  private async load(): Promise<RoutingDocuments> {
    const { rows } = await this.db.query<RoutingRow>('SELECT name, document, revision FROM gw_routing');
    const documents: RoutingDocuments = { ...empty };
    for (const row of rows) {
      if (row.name === 'default')
        documents.default = { ...empty.default, ...(row.document as Partial<DefaultRouting>) };
      if (row.name === 'aliases') documents.aliases = row.document as RoutingDocuments['aliases'];
      if (row.name === 'models') documents.models = row.document as RoutingDocuments['models'];
    }
    return documents;
  }

  async put<Name extends keyof RoutingDocuments>(
    name: Name,
    document: RoutingDocuments[Name],
    updatedBy: string,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO gw_routing (name, document, revision, updated_by, updated_at) VALUES ($1, $2, 1, $3, $4)
       ON CONFLICT (name) DO UPDATE SET document = EXCLUDED.document, revision = gw_routing.revision + 1, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
      [name, JSON.stringify(document), updatedBy, new Date(this.clock.now())],
    );
    await this.snapshot.changed();
  }
}
