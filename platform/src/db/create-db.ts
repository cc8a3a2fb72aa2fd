import { join } from 'node:path';
import type { Db } from './db.js';
import { embeddedTemplatePath } from './embedded-template.js';
import { PgliteDb } from './pglite-db.js';

export interface CreateDbOptions {
  /** `GW_SPEND_DB_URL`: when set, Postgres; when unset, the embedded store under `dataDir`. */
  url?: string | undefined;
  dataDir: string;
  /** Folder under `dataDir` for this service's embedded database. */
  embeddedName?: string;
  onError?: (error: Error) => void;
}

/**
 * `pg` is imported only on its own branch: a service runs on one store, and loading a driver it never uses is start
 * time spent for nothing. The embedded store's side is light on this thread (PGlite itself loads on the store's own
 * worker thread), and it starts that thread before this function first awaits anything: a service that opens its
 * store before loading the rest of its modules (the gateway's main.ts) has both under way at once.
 */
export async function createDb(options: CreateDbOptions): Promise<Db> {
  if (options.url) {
    const { PgDb } = await import('./pg-db.js');
    return new PgDb({ connectionString: options.url, ...(options.onError ? { onError: options.onError } : {}) });
  }
  return PgliteDb.open(join(options.dataDir, options.embeddedName ?? 'store'), embeddedTemplatePath);
}
