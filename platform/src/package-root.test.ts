import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './package-root.js';

describe('packageRoot', () => {
  it('finds a package’s folder through Node’s resolution, its own included', () => {
    const platform = packageRoot(import.meta.url, '@gw/platform');
    expect(join(platform, 'src', 'package-root.test.ts')).toBe(fileURLToPath(import.meta.url));
    expect(existsSync(join(packageRoot(import.meta.url, 'fastify'), 'fastify.js'))).toBe(true);
  });

  it('throws for a package that is not installed, rather than guessing a folder', () => {
    expect(() => packageRoot(import.meta.url, '@gw/no-such-package')).toThrow(/Cannot find module/);
  });
});
