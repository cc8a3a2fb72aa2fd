import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
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
export const embeddedTemplatePath = fileURLToPath(new URL('../../embedded-store-template.tar.gz', import.meta.url));

/** The template's bytes when the image carries one. */
export async function readEmbeddedTemplate(path = embeddedTemplatePath): Promise<Blob | undefined> {
  return existsSync(path) ? new Blob([await readFile(path)]) : undefined;
}

/** A service and its `migrations/` folder, applied to the template in the order given. */
export interface TemplateSchema {
  service: string;
  directory: string;
}

/** Initialises a database in memory, applies each service's migrations, and writes it as the template. */
export async function writeEmbeddedTemplate(
  path = embeddedTemplatePath,
  schemas: readonly TemplateSchema[] = [],
): Promise<void> {
  const database = await PgliteDb.open();
  try {
    for (const { service, directory } of schemas) await migrate(database, service, await loadMigrations(directory));
    const archive = await database.dumpDataDir();
    await writeFile(path, Buffer.from(await archive.arrayBuffer()));
  } finally {
    await database.close();
  }
}
