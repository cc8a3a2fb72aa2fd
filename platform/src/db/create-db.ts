import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from './db.js';

export interface CreateDbOptions {
  /** `GW_SPEND_DB_URL`: when set, Postgres; when unset, the embedded store under `dataDir`. */
  url?: string | undefined;
  dataDir: string;
  /** Folder under `dataDir` for this service's embedded database. */
  embeddedName?: string;
  onError?: (error: Error) => void;
}

/**
 * Each driver is imported only on its own branch: a service runs on one store, and loading `pg` and PGlite (with
 * the template's tar reader) both at every start is start time spent on a driver that is never used.
 */
export async function createDb(options: CreateDbOptions): Promise<Db> {
  if (options.url) {
    const { PgDb } = await import('./pg-db.js');
    return new PgDb({ connectionString: options.url, ...(options.onError ? { onError: options.onError } : {}) });
  }
  const directory = join(options.dataDir, options.embeddedName ?? 'store');
  const [{ PgliteDb }, { readEmbeddedTemplate }] = await Promise.all([
    import('./pglite-db.js'),
    import('./embedded-template.js'),
    mkdir(directory, { recursive: true, mode: 0o700 }),
  ]);
  return PgliteDb.open(directory, () => readEmbeddedTemplate());
}
