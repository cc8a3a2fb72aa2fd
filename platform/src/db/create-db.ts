import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from './db.js';
import { readEmbeddedTemplate } from './embedded-template.js';
import { PgDb } from './pg-db.js';
import { PgliteDb } from './pglite-db.js';

export interface CreateDbOptions {
  /** `GW_SPEND_DB_URL`: when set, Postgres; when unset, the embedded store under `dataDir`. */
  url?: string | undefined;
  dataDir: string;
  /** Folder under `dataDir` for this service's embedded database. */
  embeddedName?: string;
  onError?: (error: Error) => void;
}

export async function createDb(options: CreateDbOptions): Promise<Db> {
  if (options.url) {
    return new PgDb({ connectionString: options.url, ...(options.onError ? { onError: options.onError } : {}) });
  }
  const directory = join(options.dataDir, options.embeddedName ?? 'store');
  await mkdir(directory, { recursive: true, mode: 0o700 });
  return PgliteDb.open(directory, await readEmbeddedTemplate());
}
