import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedCrdFiles, type GeneratedFile } from './crd-yaml.js';

/** `npm run gen`: writes every generated artifact the operator owns (CRD YAML in crds/ and the gw-crds chart). */

// operator/src/gen (sources) and operator/dist/gen (build) both sit three levels under the repository root.
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

export async function writeGeneratedFiles(
  root: string,
  files: GeneratedFile[] = generatedCrdFiles(),
): Promise<string[]> {
  for (const file of files) {
    const target = join(root, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.content);
  }
  return files.map((file) => file.path);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const written = await writeGeneratedFiles(repositoryRoot);
  process.stdout.write(`${written.map((path) => `wrote ${path}`).join('\n')}\n`);
}
