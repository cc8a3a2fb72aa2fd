import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/**
 * A freshly initialised embedded database as a gzipped tarball, made when the image is built (the Containerfile runs
 * `make-embedded-template.js`). An empty embedded store starts from it instead of running initdb, which is most of
 * a first start on PGlite (seconds, WebAssembly). Absent, as in a checkout, a store is initialised as before.
 * Same PGlite, same files: the template is made by the PGlite version the image ships.
 */
export const embeddedTemplatePath = fileURLToPath(new URL('../../embedded-store-template.tar.gz', import.meta.url));

/** The template's bytes when the image carries one. */
export async function readEmbeddedTemplate(path = embeddedTemplatePath): Promise<Blob | undefined> {
  return existsSync(path) ? new Blob([await readFile(path)]) : undefined;
}

/** Initialises a database in memory and writes it as the template. */
export async function writeEmbeddedTemplate(path = embeddedTemplatePath): Promise<void> {
  const database = await PGlite.create();
  try {
    const archive = await database.dumpDataDir('gzip');
    await writeFile(path, Buffer.from(await archive.arrayBuffer()));
  } finally {
    await database.close();
  }
}
