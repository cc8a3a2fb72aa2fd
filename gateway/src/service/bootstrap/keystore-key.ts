import { randomBytes } from 'node:crypto';
import { ConfigError, Keyring } from '@gw/platform';
import { readOrCreateSecret } from './secret-file.js';

/**
 * The AES-256-GCM key for provider credentials: `GW_KEYSTORE_KEY`, or, on the embedded store only, a key generated
 * into `GW_DATA_DIR`. With Postgres it is required: replicas must share it, and a generated per-pod key would make
 * stored credentials unreadable elsewhere.
 */
export async function resolveKeystore(
  configured: string | undefined,
  embedded: boolean,
  dataDir: string,
): Promise<Keyring> {
  if (configured) return Keyring.fromHexKey(configured);
  if (!embedded)
    throw new ConfigError([
      'GW_KEYSTORE_KEY: is required when GW_SPEND_DB_URL is set (64 hex characters shared by every replica)',
    ]);
  const secret = await readOrCreateSecret(
    dataDir,
    'keystore-key',
    () => randomBytes(32).toString('hex'),
    (value) => /^[0-9a-f]{64}$/i.test(value),
  );
  return Keyring.fromHexKey(secret.value);
}
