import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header, type types } from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import { unpackDataDir } from './unpack-data-dir.js';

interface Entry {
  path: string;
  type?: types.EntryTypeName;
  content?: string;
  linkpath?: string;
}

/** A ustar archive of the given entries, as PGlite's `dumpDataDir` writes one (leading `/` on every path). */
function archiveOf(entries: readonly Entry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const { path, type = 'File', content = '', linkpath } of entries) {
    const body = Buffer.from(content);
    const header = Buffer.alloc(512);
    new Header({
      path,
      type,
      size: type === 'File' ? body.length : 0,
      mode: type === 'Directory' ? 0o755 : 0o644,
      mtime: new Date(0),
      ...(linkpath ? { linkpath } : {}),
    }).encode(header);
    blocks.push(header);
    if (type === 'File' && body.length > 0) blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  return Buffer.concat([...blocks, Buffer.alloc(1024)]);
}

describe('unpackDataDir', () => {
  const folders: string[] = [];
  const folder = async () => {
    const path = await mkdtemp(join(tmpdir(), 'gw-unpack-'));
    folders.push(path);
    return path;
  };
  afterAll(async () => {
    await Promise.all(folders.map((path) => rm(path, { recursive: true, force: true })));
  });

  const database: Entry[] = [
    { path: '/base', type: 'Directory' },
    { path: '/base/5', type: 'Directory' },
    { path: '/PG_VERSION', content: '17\n' },
    { path: '/base/5/1259', content: 'x'.repeat(9_000) },
    { path: '/global/pg_control', content: 'control' },
  ];

  it.each([
    ['gzipped', (archive: Buffer) => gzipSync(archive)],
    ['plain', (archive: Buffer) => archive],
  ])('writes a %s archive’s files and folders, owner-only, under the data directory', async (_, encode) => {
    const dataDir = await folder();
    await unpackDataDir(encode(archiveOf(database)), dataDir);
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(readFileSync(join(dataDir, 'base/5/1259'), 'utf8')).toBe('x'.repeat(9_000));
    // A file whose folder has no entry of its own still lands.
    expect(readFileSync(join(dataDir, 'global/pg_control'), 'utf8')).toBe('control');
    expect(statSync(join(dataDir, 'base/5/1259')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'base/5')).mode & 0o777).toBe(0o700);
  });

  it.each<[string, Entry[], RegExp]>([
    ['a path that climbs out', [{ path: '/PG_VERSION', content: '17' }, { path: '/../escaped' }], /outside/],
    [
      'a symbolic link',
      [
        { path: '/PG_VERSION', content: '17' },
        { path: '/link', type: 'SymbolicLink', linkpath: '/etc' },
      ],
      /SymbolicLink/,
    ],
    ['no PG_VERSION', [{ path: '/base/5/1259', content: 'x' }], /no PG_VERSION/],
  ])('refuses an archive with %s, and leaves no PG_VERSION behind', async (_, entries, message) => {
    const dataDir = await folder();
    await expect(unpackDataDir(archiveOf(entries), dataDir)).rejects.toThrow(message);
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(false);
    expect(existsSync(join(dataDir, '..', 'escaped'))).toBe(false);
    expect(existsSync(join(dataDir, 'link'))).toBe(false);
  });

  it('refuses bytes that are not an archive', async () => {
    const dataDir = await folder();
    await expect(unpackDataDir(gzipSync(Buffer.from('not a tarball at all'.repeat(40))), dataDir)).rejects.toThrow();
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(false);
  });
});
