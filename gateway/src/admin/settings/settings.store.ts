import { isoTimestamp } from '@gw/platform';
import type { Clock, Coord, Db, Logger } from '@gw/platform';
import { SnapshotStore } from '../../shared/replicated-snapshot.js';
import { parseSettingsDocument, type RuntimeSettings } from './settings.schema.js';

export interface StoredSettings {
  settings: RuntimeSettings;
  updatedAt: string | null;
  updatedBy: string | null;
}

interface SettingsRow {
  document: unknown;
  updated_at: Date | string;
  updated_by: string;
}

const documentName = 'runtime';

/**
 * Runtime settings. `get()` is a synchronous read of the replica's cached copy, cheap enough for the
 * request path (routing reads `seatOverflow`); a write reloads here and invalidates every replica through Coord.
 */
export class SettingsStore extends SnapshotStore<StoredSettings> {
  constructor(
    private readonly db: Db,
    coord: Coord,
    private readonly clock: Clock,
    logger: Logger,
  ) {
    super({
      channel: 'settings',
      initial: { settings: parseSettingsDocument({}), updatedAt: null, updatedBy: null },
      coord,
      clock,
      logger,
    });
  }

  protected loadSnapshot(): Promise<StoredSettings> {
    return this.read();
  }

  /** The cached settings; never a store round trip. */
  get(): RuntimeSettings {
    return this.snapshot.current.settings;
  }

  /** The cached settings once `condition` holds: resolves at the reload that brings the change (tests, replicas). */
  async reached(condition: (settings: RuntimeSettings) => boolean): Promise<RuntimeSettings> {
    return (await this.snapshot.reached((stored) => condition(stored.settings))).settings;
  }

  /** Fresh from the store (admin reads). */
  async read(): Promise<StoredSettings> {
    const { rows } = await this.db.query<SettingsRow>(
      'SELECT document, updated_at, updated_by FROM gw_settings WHERE name = $1',
      [documentName],
    );
    const row = rows[0];
    if (!row) return { settings: parseSettingsDocument({}), updatedAt: null, updatedBy: null };
    return {
      settings: parseSettingsDocument(row.document),
      updatedAt: isoTimestamp(row.updated_at),
      updatedBy: row.updated_by,
    };
  }

  /** Merge a patch atomically (omitted kept, `null` stored as null) and tell every replica. */
  async update(patch: Partial<RuntimeSettings>, updatedBy: string): Promise<StoredSettings> {
    await this.db.query(
      `INSERT INTO gw_settings (name, document, revision, updated_by, updated_at) VALUES ($1, $2::jsonb, 1, $3, $4)
       ON CONFLICT (name) DO UPDATE SET document = gw_settings.document || EXCLUDED.document, revision = gw_settings.revision + 1,
         updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
      [documentName, JSON.stringify(patch), updatedBy, new Date(this.clock.now())],
    );
    await this.snapshot.changed();
    return this.snapshot.current;
  }
}
