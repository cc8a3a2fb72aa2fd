import type { FastifyBaseLogger } from 'fastify';
import { Keyring, type Db } from '@gw/platform';
import type { BootstrapDurableRequest } from '@gw/contracts';
import type { SettingsStore } from '../settings/settings-store.js';
import type { Stash } from './stash.js';

/** Where the durable store came from: env (GW_SPEND_DB_URL), the embedded default, a gateway bootstrap, or nowhere. */
export type DurableSource = 'env' | 'embedded' | 'bootstrap' | 'none';

export interface DurableManagerOptions {
  stash: Stash;
  settings: SettingsStore;
  logger: FastifyBaseLogger;
  /** Opens and migrates a Postgres store for a bootstrapped URL. */
  openDb: (url: string) => Promise<Db>;
  initial: { db: Db | null; source: DurableSource };
  /** GW_CONTENT_KEY from the environment; wins over a bootstrapped key. */
  contentKey: string | null;
  contentMode?: string;
}

/**
 * Owns the durable configuration: the store, the content key and the content mode, as set at boot and pushed by the
 * gateway through `POST /admin/optimizer/bootstrap-durable`. Environment settings win; a bootstrap
 * fills what the environment left open and moves an embedded or absent store onto the shared Postgres.
 */
export class DurableManager {
  private db: Db | null;
  private source: DurableSource;
  private key: string | null;
  private mode: string;
  private cachedKeyring: Keyring | null = null;
  private bootstrapUrl: string | null = null;

  constructor(private readonly options: DurableManagerOptions) {
    this.db = options.initial.db;
    this.source = options.initial.source;
    this.key = options.contentKey;
    this.mode = options.contentMode ?? 'full';
    this.apply();
  }

  keyring(): Keyring | null {
    return this.cachedKeyring;
  }

  contentMode(): string {
    return this.mode;
  }

  /** Returns whether fresh spans can now be durably committed. */
  async bootstrap(body: BootstrapDurableRequest): Promise<boolean> {
    if (this.options.contentKey === null && body.contentKey) this.key = body.contentKey.toLowerCase();
    this.mode = body.contentMode;
    const movable =
      this.source === 'none' ||
      this.source === 'embedded' ||
      (this.source === 'bootstrap' && this.bootstrapUrl !== body.spendDbUrl);
    if (movable) {
      const opened = await this.options.openDb(body.spendDbUrl);
      const previous = this.source === 'bootstrap' ? this.db : null;
      this.db = opened;
      this.source = 'bootstrap';
      this.bootstrapUrl = body.spendDbUrl;
      await this.options.settings.attach(opened);
      await previous
        ?.close()
        .catch((error: unknown) =>
          this.options.logger.warn({ err: error }, 'closing the previous bootstrapped store failed'),
        );
    }
    this.apply();
    return this.options.stash.state() === 'ready';
  }

  async close(): Promise<void> {
    if (this.source === 'bootstrap') await this.db?.close();
  }

  private apply(): void {
    this.cachedKeyring = this.key ? Keyring.fromHexKey(this.key) : null;
    this.options.stash.configure({ db: this.db, contentKey: this.key, contentMode: this.mode });
  }
}
