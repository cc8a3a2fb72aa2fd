import { randomToken } from '@gw/platform';
import { readOrCreateSecret } from './secret-file.js';

export interface AdminTokenSource {
  token: string;
  /** `env` when configured, `generated` on the first start (print it once), `stored` afterwards. */
  origin: 'env' | 'generated' | 'stored';
  path?: string;
}

/** With no GW_ADMIN_TOKEN the embedded quick start still needs an owner credential (README quick start). */
export async function resolveAdminToken(configured: string | undefined, dataDir: string): Promise<AdminTokenSource> {
  if (configured) return { token: configured, origin: 'env' };
  const secret = await readOrCreateSecret(
    dataDir,
    'admin-token',
    () => `gwadm_${randomToken(32)}`,
    (value) => value.length >= 16,
  );
  return { token: secret.value, origin: secret.origin, path: secret.path };
}
