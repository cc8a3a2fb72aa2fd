import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { preloadDocsUiModules } from './docs-ui-modules.js';

describe('preloadDocsUiModules', () => {
  it('loads the modules the docs plugin requires, from its own folder, so its registration finds them cached', () => {
    const fromPlugin = createRequire(createRequire(import.meta.url).resolve('@fastify/swagger-ui'));
    const modules = ['yaml', '@fastify/static'].map((name) => fromPlugin.resolve(name));
    for (const path of modules) delete fromPlugin.cache[path];

    preloadDocsUiModules(import.meta.url);

    for (const path of modules) expect(fromPlugin.cache[path]?.loaded).toBe(true);
  });

  it('does nothing, and does not throw, where the plugin cannot be found', () => {
    const outside = pathToFileURL(join(tmpdir(), 'no-such-service', 'main.js'));
    expect(() => preloadDocsUiModules(outside)).not.toThrow();
  });
});
