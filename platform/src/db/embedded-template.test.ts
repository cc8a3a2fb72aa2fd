import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { writeEmbeddedTemplate } from './embedded-template.js';
import { migrate, type Migration } from './migrations.js';
import { PgliteDb } from './pglite-db.js';

describe('embedded store template', () => {
  const folders: string[] = [];
  const folder = async () => {
    const path = await mkdtemp(join(tmpdir(), 'gw-template-'));
    folders.push(path);
    return path;
  };
  afterAll(async () => {
    await Promise.all(folders.map((path) => rm(path, { recursive: true, force: true })));
  });

  it('is absent outside an image, so a store is initialised as before', async () => {
    const store = await PgliteDb.open(await folder(), join(await folder(), 'none.tar.gz'));
    try {
      expect((await store.query('SELECT datname FROM pg_database ORDER BY datname')).rows).toEqual([
        { datname: 'postgres' },
        { datname: 'template0' },
        { datname: 'template1' },
      ]);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('fills an empty data directory, and is ignored once the directory holds a database', async () => {
    // A template that carries a mark, to see that the store came from it and not from initdb.
    const marked = await PGlite.create();
    await marked.exec('CREATE TABLE kept (note text); INSERT INTO kept VALUES ($$from the template$$)');
    const template = join(await folder(), 'marked.tar.gz');
    await writeFile(template, new Uint8Array(await (await marked.dumpDataDir('gzip')).arrayBuffer()));
    await marked.close();

    const dataDir = await folder();
    const first = await PgliteDb.open(dataDir, template);
    expect((await first.query('SELECT note FROM kept')).rows).toEqual([{ note: 'from the template' }]);
    await first.exec('INSERT INTO kept VALUES ($$written after$$)');
    await first.close();

    const reopened = await PgliteDb.open(dataDir, template);
    try {
      expect((await reopened.query('SELECT note FROM kept ORDER BY note')).rows).toEqual([
        { note: 'from the template' },
        { note: 'written after' },
      ]);
    } finally {
      await reopened.close();
    }
  }, 120_000);

  it('is written by the image build as a database a store opens', async () => {
    const templatePath = join(await folder(), 'template.tar.gz');
    await writeEmbeddedTemplate(templatePath);
    const store = await PgliteDb.open(await folder(), templatePath);
    try {
      expect(await store.ping()).toBe(true);
      // initdb's template databases are left out: only CREATE DATABASE reads them, and a first start writes less.
      expect((await store.query('SELECT datname FROM pg_database ORDER BY datname')).rows).toEqual([
        { datname: 'postgres' },
      ]);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('carries the services’ migrations, so a store made from it has nothing left to apply', async () => {
    const migrations = await folder();
    const gateway = join(migrations, 'gateway');
    await mkdir(gateway);
    await writeFile(join(gateway, '001_notes.sql'), 'CREATE TABLE notes (note text);');
    await writeFile(join(gateway, '002_more.sql'), 'ALTER TABLE notes ADD COLUMN at timestamptz;');
    const templatePath = join(await folder(), 'template.tar.gz');
    await writeEmbeddedTemplate(templatePath, [{ service: 'gateway', directory: gateway }]);

    const store = await PgliteDb.open(await folder(), templatePath);
    try {
      const shipped: Migration[] = [
        { version: 1, name: 'notes', sql: 'CREATE TABLE notes (note text);' },
        { version: 2, name: 'more', sql: 'ALTER TABLE notes ADD COLUMN at timestamptz;' },
        { version: 3, name: 'later', sql: 'CREATE TABLE later (id int);' },
      ];
      // A later build's migration still runs; the two the template carries do not run again (they would fail).
      expect(await migrate(store, 'gateway', shipped)).toEqual({
        service: 'gateway',
        applied: 3,
        expected: 3,
        upToDate: true,
      });
      expect((await store.query('SELECT count(*)::int AS n FROM notes')).rows).toEqual([{ n: 0 }]);
    } finally {
      await store.close();
    }
  }, 120_000);
});
