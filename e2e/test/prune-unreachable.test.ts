import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './process.js';

const script = join(repoRoot, 'images', 'prune-unreachable.mjs');

/** An installed tree as npm lays one out: a workspace, hoisted and nested packages, and a workspace link. */
async function installedTree(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'gw-prune-'));
  const packages: Record<string, object> = {
    '': { name: 'repo', workspaces: ['service', 'other'] },
    service: { name: '@x/service', dependencies: { shared: '^1', 'needs-nested': '^1', '@x/lib': '1' } },
    other: { name: '@x/other', dependencies: { 'other-only': '^1' } },
    lib: { name: '@x/lib', dependencies: { 'lib-dep': '^1' } },
    'node_modules/@x/lib': { resolved: 'lib', link: true },
    'node_modules/@x/other': { resolved: 'other', link: true },
    'node_modules/shared': { version: '1.0.0', optionalDependencies: { 'optional-dep': '^1' } },
    'node_modules/optional-dep': { version: '1.0.0' },
    'node_modules/needs-nested': { version: '1.0.0', dependencies: { shared: '^2' } },
    'node_modules/needs-nested/node_modules/shared': { version: '2.0.0' },
    'node_modules/lib-dep': { version: '1.0.0' },
    'node_modules/other-only': { version: '1.0.0', dependencies: { 'other-deep': '^1' } },
    'node_modules/other-deep': { version: '1.0.0' },
    'node_modules/dev-tool': { version: '1.0.0', dev: true },
  };
  await writeFile(join(root, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages }));
  for (const path of Object.keys(packages).filter((path) => path.startsWith('node_modules/') && !path.includes('@x')))
    await mkdir(join(root, path), { recursive: true });
  for (const folder of ['service', 'other', 'lib']) await mkdir(join(root, folder), { recursive: true });
  await mkdir(join(root, 'node_modules', '@x'), { recursive: true });
  await symlink('../../lib', join(root, 'node_modules', '@x', 'lib'));
  await symlink('../../other', join(root, 'node_modules', '@x', 'other'));
  return root;
}

describe('images/prune-unreachable.mjs', () => {
  const roots: string[] = [];
  afterAll(async () => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

  it('keeps what the roots reach by Node’s resolution (nested copies and links included) and removes the rest', async () => {
    const root = await installedTree();
    roots.push(root);
    const { stdout } = await promisify(execFile)(process.execPath, [script, 'service'], { cwd: root });
    const present = (path: string) => existsSync(join(root, path));
    for (const kept of [
      'node_modules/shared',
      'node_modules/optional-dep',
      'node_modules/needs-nested/node_modules/shared',
      'node_modules/lib-dep',
      'node_modules/@x/lib',
      'lib',
    ])
      expect(present(kept), kept).toBe(true);
    for (const removed of [
      'node_modules/other-only',
      'node_modules/other-deep',
      'node_modules/dev-tool',
      'node_modules/@x/other',
    ])
      expect(present(removed), removed).toBe(false);
    // A removed link goes, never the folder it points at.
    expect(present('other')).toBe(true);
    expect(stdout).toMatch(/removed 4\b/);
  });

  it('takes an installed package as a root, and refuses one the lockfile does not name', async () => {
    const root = await installedTree();
    roots.push(root);
    await promisify(execFile)(process.execPath, [script, 'node_modules/other-only'], { cwd: root });
    expect(existsSync(join(root, 'node_modules/other-deep'))).toBe(true);
    expect(existsSync(join(root, 'node_modules/shared'))).toBe(false);
    await expect(
      promisify(execFile)(process.execPath, [script, 'node_modules/missing'], { cwd: root }),
    ).rejects.toThrow(/not in package-lock.json/);
  });
});
