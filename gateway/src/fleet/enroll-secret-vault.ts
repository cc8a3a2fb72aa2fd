import { DecryptError, type Clock, type Db, type Keyring } from '@gw/platform';
import { gatewayError } from '../errors.js';

const associatedData = (orgId: string) => `endpoint-enroll-secret:${orgId}`;

/**
 * The gateway's sealed copy of each evidence organization's agent enroll secret (migration 038): written when an
 * administrator rotates it through the gateway, read when an enrolled developer asks for it at
 * `/connect/endpoint-enrollment`. Sealed with the keystore key and bound to the organization, so a row copied to
 * another organization does not open.
 */
export class EnrollSecretVault {
  constructor(
    private readonly db: Db,
    private readonly keyring: Keyring,
    private readonly clock: Clock,
  ) {}

  /** Keep the secret the service just minted, with the service's own `createdAt` of it. */
  async store(orgId: string, secret: string, mintedAt: string): Promise<void> {
    await this.db.query(
      `INSERT INTO gw_endpoint_enroll_secrets (org_id, sealed, minted_at, rotated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id) DO UPDATE SET sealed = EXCLUDED.sealed, minted_at = EXCLUDED.minted_at, rotated_at = EXCLUDED.rotated_at`,
      [orgId, this.keyring.encrypt(secret, associatedData(orgId)), mintedAt, new Date(this.clock.now())],
    );
  }

  /** Whether the copy is the secret the service holds now: none, or one rotated or revoked at the service since, is not. */
  async isCurrent(orgId: string, serviceCreatedAt: string | null): Promise<boolean> {
    if (serviceCreatedAt === null) return false;
    const { rows } = await this.db.query<{ minted_at: string }>(
      'SELECT minted_at FROM gw_endpoint_enroll_secrets WHERE org_id = $1',
      [orgId],
    );
    return rows[0]?.minted_at === serviceCreatedAt;
  }

  /** The plaintext, or null when no rotation went through this gateway; 503 when the keystore key changed since. */
  async read(orgId: string): Promise<string | null> {
    const { rows } = await this.db.query<{ sealed: string }>(
      'SELECT sealed FROM gw_endpoint_enroll_secrets WHERE org_id = $1',
      [orgId],
    );
    if (!rows[0]) return null;
    try {
      return this.keyring.decryptString(rows[0].sealed, associatedData(orgId));
    } catch (error) {
      if (!(error instanceof DecryptError)) throw error;
      throw gatewayError('enroll_secret_unreadable');
    }
  }
}
