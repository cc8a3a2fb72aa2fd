import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedCrdFiles } from './crd-yaml.js';
import { repositoryRoot, writeGeneratedFiles } from './main.js';

// `npm run gen` keeps crds/ and charts/gw-crds/templates/ equal to the zod source; this test catches a forgotten run.
// GW_UPDATE_GENERATED=1 rewrites them instead (same code path as `npm run gen`).
describe('generated CRD YAML', () => {
  const files = generatedCrdFiles();

  if (process.env.GW_UPDATE_GENERATED === '1') {
    it('rewrites the generated files', async () => {
      expect(await writeGeneratedFiles(repositoryRoot, files)).toHaveLength(files.length);
    });
  }

  it.each(files.map((file) => [file.path, file.content] as const))(
    '%s matches its zod source',
    async (path, content) => {
      const committed = await readFile(join(repositoryRoot, path), 'utf8').catch(() => '<missing: run npm run gen>');
      expect(committed, `${path} drifted from contracts/src/crds: run npm run gen`).toBe(content);
    },
  );
});
