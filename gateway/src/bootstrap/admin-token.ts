import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomToken } from '@gw/platform';

export interface AdminTokenSource {
  token: string;
  /** `env` when configured, `generated` on the first start (print it once), `stored` afterwards. */
  origin: 'env' | 'generated' | 'stored';
  path?: string;
}

/**
 * With no GW_ADMIN_TOKEN the embedded quick start still needs an owner credential: generate one on first start,
 * keep it under GW_DATA_DIR readable only by this user (0600), and reuse it on later starts.
 */
export async function resolveAdminToken(configured: string | undefined, dataDir: string): Promise<AdminTokenSource> {
  if (configured) return { token: configured, origin: 'env' };
  const path = join(dataDir, 'admin-token');
  try {
    const stored = (await readFile(path, 'utf8')).trim();
    if (stored.length >= 16) return { token: stored, origin: 'stored', path };
  } catch {
    // first start: fall through and generate
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const token = `gwadm_${randomToken(32)}`;
  await writeFile(path, `${token}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const winner = (await readFile(path, 'utf8')).trim();
  return { token: winner, origin: winner === token ? 'generated' : 'stored', path };
}
