import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import { loadMigrations, migrate } from './migrations.js';
import { PgliteDb } from './pglite-db.js';

/**
 * An initialised embedded database with the image's schemas already migrated, as a gzipped tarball made when the
 * image is built (the Containerfile runs `make-embedded-template.js`). An empty embedded store starts from it instead
 * of running initdb and every migration, which is most of a first start on PGlite (seconds, WebAssembly). Absent, as
 * in a checkout, a store is initialised and migrated as before. Same PGlite, same files, same migrations: the
 * template is made by the build it ships in, and a later build's migrations still run on a store made from an older
 * one (the ledger says what is applied).
 *
 * Every service's schema is in the one template, as in the one Postgres database the operator gives the three
 * services: a service's embedded store carries the others' tables, empty, and its own ledger rows decide what it
 * migrates.
 */
export const embeddedTemplatePath = join(
  packageRoot(import.meta.url, '@gw/platform'),
  'embedded-store-template.tar.gz',
);

/** A service and its `migrations/` folder, applied to the template in the order given. */
export interface TemplateSchema {
  service: string;
  directory: string;
}

/**
 * Initialises a database in memory, applies each service's migrations, and writes it as the template.
 *
 * The template databases initdb makes (`template0`, `template1`) are dropped first: they are only ever read by
 * `CREATE DATABASE`, which an embedded store (one process, one database) never runs, and they are 15 of the data
 * directory's 41 MB, every byte of which a first start writes to its volume.
 */
export async function writeEmbeddedTemplate(
  path = embeddedTemplatePath,
  schemas: readonly TemplateSchema[] = [],
): Promise<void> {
  const database = await PgliteDb.open();
  try {
    // One statement per call: a multi-statement string runs as one transaction, which DROP DATABASE refuses.
    await database.exec("UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')");
    await database.exec('DROP DATABASE template0');
    await database.exec('DROP DATABASE template1');
    for (const { service, directory } of schemas) await migrate(database, service, await loadMigrations(directory));
    // A checkpoint first: the archive is taken from a running database, so a store opened from it recovers from its
    // last checkpoint, and without this one that would replay every migration's write-ahead log at each first start.
    await database.exec('CHECKPOINT');
    await writeFile(path, await database.dumpDataDir());
  } finally {
    await database.close();
  }
}
