import { isoTimestamp } from '@gw/platform';
import type { Clock, Coord, Db, Keyring, Logger } from '@gw/platform';
import { SnapshotStore } from '../shared/replicated-snapshot.js';
import { adapters } from './adapters.js';
import { familyOf, type ProviderInstance, type ProviderType } from './provider-types.js';

interface ProviderRow {
  slug: string;
  type: ProviderType;
  api_key_enc: string | null;
  base_url: string | null;
  api_version: string | null;
  updated_by: string;
  updated_at: Date | string;
}

export interface ProviderWrite {
  slug: string;
  type: ProviderType;
  apiKey: string | null;
  baseUrl: string | null;
  apiVersion: string | null;
  updatedBy: string;
}

export interface ProviderSummary {
  slug: string;
  type: ProviderType;
  baseUrl: string;
  apiVersion: string | null;
  hasKey: boolean;
  /** Present only when asked for with `includeKeys` (a credential-grade read). */
  apiKey?: string | null;
  updatedAt: string;
  updatedBy: string;
}

/**
 * Provider instances with encrypted credentials. Inference reads a replicated in-memory snapshot (no store read on the
 * hot path); writes go to the store and every replica reloads.
 */
export class ProviderStore extends SnapshotStore<ReadonlyMap<string, ProviderInstance>> {
  constructor(
    private readonly db: Db,
    private readonly keyring: Keyring,
    coord: Coord,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    super({
      channel: 'providers',
      initial: new Map(),
      coord,
      clock,
      logger,
    });
  }

  protected loadSnapshot(): Promise<ReadonlyMap<string, ProviderInstance>> {
    return this.load();
  }

  get(slug: string): ProviderInstance | undefined {
    return this.snapshot.current.get(slug);
  }

  all(): ProviderInstance[] {
    return [...this.snapshot.current.values()];
  }

  private async load(): Promise<ReadonlyMap<string, ProviderInstance>> {
    const { rows } = await this.db.query<ProviderRow>(
      'SELECT slug, type, api_key_enc, base_url, api_version, updated_by, updated_at FROM gw_providers ORDER BY slug',
    );
    const next = new Map<string, ProviderInstance>();
    for (const row of rows) {
      try {
        next.set(row.slug, this.toInstance(row));
      } catch (error) {
        this.logger.error(
          { err: error, provider: row.slug },
          'provider credential cannot be decrypted; check GW_KEYSTORE_KEY',
        );
      }
    }
    return next;
  }

  private toInstance(row: ProviderRow): ProviderInstance {
    const adapter = adapters[row.type];
    return {
      slug: row.slug,
      type: row.type,
      family: familyOf[row.type],
      apiKey: row.api_key_enc ? this.keyring.decryptString(row.api_key_enc, `provider:${row.slug}`) : null,
      baseUrl: normaliseBaseUrl(row.type, row.base_url ?? adapter.defaultBaseUrl ?? ''),
      apiVersion: row.api_version ?? adapter.defaultApiVersion ?? null,
    };
  }

  async summaries(options: { includeKeys?: boolean } = {}): Promise<ProviderSummary[]> {
    const { rows } = await this.db.query<ProviderRow>(
      'SELECT slug, type, api_key_enc, base_url, api_version, updated_by, updated_at FROM gw_providers ORDER BY slug',
    );
    return rows.map((row) => ({
      slug: row.slug,
      type: row.type,
      baseUrl: normaliseBaseUrl(row.type, row.base_url ?? adapters[row.type].defaultBaseUrl ?? ''),
      apiVersion: row.api_version,
      hasKey: row.api_key_enc !== null,
      ...(options.includeKeys
        ? { apiKey: row.api_key_enc ? this.keyring.decryptString(row.api_key_enc, `provider:${row.slug}`) : null }
        : {}),
      updatedAt: isoTimestamp(row.updated_at),
      updatedBy: row.updated_by,
    }));
  }

  async put(write: ProviderWrite): Promise<void> {
    const encrypted = write.apiKey === null ? null : this.keyring.encrypt(write.apiKey, `provider:${write.slug}`);
    await this.db.query(
      `INSERT INTO gw_providers (slug, type, api_key_enc, base_url, api_version, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (slug) DO UPDATE SET type = EXCLUDED.type, api_key_enc = EXCLUDED.api_key_enc, base_url = EXCLUDED.base_url,
         api_version = EXCLUDED.api_version, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
      [write.slug, write.type, encrypted, write.baseUrl, write.apiVersion, write.updatedBy, new Date(this.clock.now())],
    );
    await this.snapshot.changed();
  }

  async delete(slug: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM gw_providers WHERE slug = $1', [slug]);
    await this.snapshot.changed();
    return rowCount > 0;
  }
}

/** Anthropic's SDK convention omits `/v1`; our adapters address paths below the version segment. */
function normaliseBaseUrl(type: ProviderType, baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  if (type === 'anthropic' && trimmed && !/\/v\d+$/.test(trimmed)) return `${trimmed}/v1`;
  return trimmed;
}
