import { DecryptError, type Clock, type Db, type Keyring } from '@gw/platform';
import type { ConnectorGrant } from './oauth-client.js';

/** Whose grant: the hub's own (it lists a connector's tools) or one developer's (their calls go out under it). */
export type GrantOwner = { kind: 'hub' } | { kind: 'user'; user: string };

const ownerKey = (owner: GrantOwner) => (owner.kind === 'hub' ? 'hub' : `user:${owner.user.toLowerCase()}`);
const associatedData = (owner: string, connector: string) => `mcp-grant:${owner}:${connector}`;

/** Connector grants (migration 039): the bearer sealed and bound to its owner and connector; an expired one is none. */
export class McpGrantStore {
  constructor(
    private readonly db: Db,
    private readonly keyring: Keyring,
    private readonly clock: Clock,
  ) {}

  async save(owner: GrantOwner, connector: string, grant: ConnectorGrant): Promise<void> {
    const key = ownerKey(owner);
    await this.db.query(
      `INSERT INTO gw_mcp_grants (owner, connector, sealed, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (owner, connector) DO UPDATE SET sealed = EXCLUDED.sealed, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at`,
      [
        key,
        connector,
        this.keyring.encrypt(grant.accessToken, associatedData(key, connector)),
        grant.expiresAt === null ? null : new Date(grant.expiresAt),
        new Date(this.clock.now()),
      ],
    );
  }

  /** The live bearer, or null (none, expired, or sealed under a key this gateway no longer holds). */
  async bearer(owner: GrantOwner, connector: string): Promise<string | null> {
    const key = ownerKey(owner);
    const { rows } = await this.db.query<{ sealed: string; expires_at: Date | string | null }>(
      'SELECT sealed, expires_at FROM gw_mcp_grants WHERE owner = $1 AND connector = $2',
      [key, connector],
    );
    const row = rows[0];
    if (!row || (row.expires_at !== null && new Date(row.expires_at).getTime() <= this.clock.now())) return null;
    try {
      return this.keyring.decryptString(row.sealed, associatedData(key, connector));
    } catch (error) {
      if (error instanceof DecryptError) return null;
      throw error;
    }
  }

  async remove(owner: GrantOwner, connector: string): Promise<boolean> {
    return (
      (
        await this.db.query('DELETE FROM gw_mcp_grants WHERE owner = $1 AND connector = $2', [
          ownerKey(owner),
          connector,
        ])
      ).rowCount > 0
    );
  }
}
