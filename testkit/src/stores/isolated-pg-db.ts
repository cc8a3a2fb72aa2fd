import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadMigrations, type Db } from '@gw/platform';
import { PgliteDb, writeEmbeddedTemplate, type TemplateSchema } from '@gw/platform/pglite';
import { PgDb } from '@gw/platform/postgres';

/** PGlite's version, which keys the cached template (its package does not export its package.json). */
function pgliteVersion(): string {
  let folder = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(folder, 'package.json'))) folder = dirname(folder);
  return (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string }).version;
}

export interface TestDb {
  db: Db;
  /** Drops the isolated schema (Postgres) and closes the store. */
  dispose(): Promise<void>;
}

/** A real Postgres connection isolated in a fresh schema, so tests never see each other's rows. */
export async function createIsolatedPgDb(url: string): Promise<TestDb & { schema: string; url: string }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new PgDb({ connectionString: url, max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const db = new PgDb({ connectionString: url, searchPath: schema, max: 5 });
  return {
    db,
    schema,
    url,
    dispose: async () => {
      await db.close();
      const cleanup = new PgDb({ connectionString: url, max: 1 });
      await cleanup.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await cleanup.close();
    },
  };
}

/**
 * The embedded store in memory: nothing on disk, nothing shared, gone when disposed. With `schemas`, it opens with
 * those services' migrations already applied, as a store made from the image's template does (a service that
 * migrates it finds nothing left to apply); without, it is an empty database.
 */
export async function createMemoryPgliteDb(schemas: readonly TemplateSchema[] = []): Promise<TestDb> {
  const db = await PgliteDb.open(undefined, await memoryTemplate(schemas));
  return { db, dispose: () => db.close() };
}

/** Each set of schemas' template path, once per test process: its migration files are read and hashed only once. */
const templates = new Map<string, Promise<string>>();

/**
 * The template a memory store starts from, made once per machine for each PGlite version and set of migrations (a
 * hash of their files names it): loading it takes about a third of the time initdb does, and applying a service's
 * migrations on PGlite takes seconds more, for every store-facing test. Written under a unique name and renamed into
 * place, so test processes that make it at once each see a whole file.
 */
function memoryTemplate(schemas: readonly TemplateSchema[]): Promise<string> {
  const key = schemas.map(({ service, directory }) => `${service}=${directory}`).join('\0');
  let made = templates.get(key);
  if (!made) {
    made = makeTemplate(schemas);
    templates.set(key, made);
  }
  return made;
}

async function makeTemplate(schemas: readonly TemplateSchema[]): Promise<string> {
  const hash = createHash('sha256').update(pgliteVersion());
  for (const { service, directory } of schemas) {
    hash.update(`\0${service}`);
    for (const { version, name, sql } of await loadMigrations(directory)) hash.update(`\0${version}\0${name}\0${sql}`);
  }
  const path = join(tmpdir(), `gw-test-pglite-template-${hash.digest('hex').slice(0, 16)}.tar.gz`);
  if (existsSync(path)) return path;
  const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeEmbeddedTemplate(partial, schemas);
  await rename(partial, path);
  return path;
}
