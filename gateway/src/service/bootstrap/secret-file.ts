import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface GeneratedSecret {
  value: string;
  /** `generated` on the first start (print it once if it is a credential a person needs), `stored` afterwards. */
  origin: 'generated' | 'stored';
  path: string;
}

/**
 * A secret the embedded quick start needs without configuration: read from `GW_DATA_DIR/<name>` or generated once,
 * written with mode 0600 (exclusive create, so two processes starting together agree on one value).
 */
export async function readOrCreateSecret(
  dataDir: string,
  name: string,
  generate: () => string,
  isValid: (value: string) => boolean,
): Promise<GeneratedSecret> {
  const path = join(dataDir, name);
  try {
    const stored = (await readFile(path, 'utf8')).trim();
    if (isValid(stored)) return { value: stored, origin: 'stored', path };
  } catch {
    // first start: generate below
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const fresh = generate();
  await writeFile(path, `${fresh}\n`, { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const winner = (await readFile(path, 'utf8')).trim();
  return { value: winner, origin: winner === fresh ? 'generated' : 'stored', path };
}
