import { isoTimestamp } from '@gw/platform';
import type { Clock, Db, Keyring, Queryable } from '@gw/platform';
import type { Role } from '../../admin/roles.js';
import type { ClaimMapping } from './idp-config.schema.js';

/** The identity provider console sign-in uses; the client secret stays sealed until a code exchange needs it. */
export interface IdpConfig {
  issuer: string;
  clientId: string;
  clientSecretSealed: string;
  claimMapping: ClaimMapping;
  adminRole: Role;
  roleGroupMap: Readonly<Record<string, Role>>;
  updatedAt: string;
  updatedBy: string;
}

export type IdpConfigWrite = Omit<IdpConfig, 'clientSecretSealed' | 'updatedAt'> & { clientSecret: string | null };

interface ConfigRow {
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  claim_mapping: ClaimMapping | string;
  role_group_map: Record<string, Role> | string;
  admin_role: Role;
  updated_by: string;
  updated_at: Date | string;
}

// One identity provider per deployment; the column leaves room for a tenant's own in fleet mode.
const deploymentTenant = '';
// Associated data binds the sealed secret to its row: a value copied elsewhere does not open.
const secretContext = 'idp:client-secret';
const json = <Value>(value: Value | string): Value =>
  typeof value === 'string' ? (JSON.parse(value) as Value) : value;

export const defaultClaimMapping: ClaimMapping = { username: 'email', displayName: 'name' };

/** Read on every sign-in and session check (one indexed row), so a change applies at once on every replica. */
export async function readIdpConfig(db: Queryable): Promise<IdpConfig | null> {
  const { rows } = await db.query<ConfigRow>(
    `SELECT issuer, client_id, client_secret_sealed, claim_mapping, role_group_map, admin_role, updated_by, updated_at
       FROM gw_idp_config WHERE tenant = $1`,
    [deploymentTenant],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    issuer: row.issuer,
    clientId: row.client_id,
    clientSecretSealed: row.client_secret_sealed,
    claimMapping: { ...defaultClaimMapping, ...json(row.claim_mapping) },
    adminRole: row.admin_role,
    roleGroupMap: json(row.role_group_map),
    updatedAt: isoTimestamp(row.updated_at),
    updatedBy: row.updated_by,
  };
}

export class IdpConfigStore {
  constructor(
    private readonly db: Db,
    private readonly keyring: Keyring,
    private readonly clock: Clock,
  ) {}

  read(): Promise<IdpConfig | null> {
    return readIdpConfig(this.db);
  }

  /** The client secret, unsealed only for a code exchange. */
  clientSecret(config: IdpConfig): string {
    return this.keyring.decryptString(config.clientSecretSealed, secretContext);
  }

  /** Replace the configuration; a null secret keeps the stored one (the caller checked there is one). */
  async write(write: IdpConfigWrite): Promise<IdpConfig> {
    return this.db.transaction(async (tx) => {
      const current = await readIdpConfig(tx);
      const sealed =
        write.clientSecret === null
          ? (current?.clientSecretSealed ?? null)
          : this.keyring.encrypt(write.clientSecret, secretContext);
      if (sealed === null) throw new Error('a client secret is required');
      const updatedAt = new Date(this.clock.now()).toISOString();
      await tx.query(
        `INSERT INTO gw_idp_config (tenant, issuer, client_id, client_secret_sealed, claim_mapping, role_group_map, admin_role, updated_by, updated_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9)
         ON CONFLICT (tenant) DO UPDATE SET issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id,
           client_secret_sealed = EXCLUDED.client_secret_sealed, claim_mapping = EXCLUDED.claim_mapping,
           role_group_map = EXCLUDED.role_group_map, admin_role = EXCLUDED.admin_role,
           updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
        [
          deploymentTenant,
          write.issuer,
          write.clientId,
          sealed,
          JSON.stringify(write.claimMapping),
          JSON.stringify(write.roleGroupMap),
          write.adminRole,
          write.updatedBy,
          updatedAt,
        ],
      );
      return { ...write, clientSecretSealed: sealed, updatedAt };
    });
  }

  /** Remove the configuration; true when there was one. */
  async remove(): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM gw_idp_config WHERE tenant = $1', [deploymentTenant]);
    return rowCount > 0;
  }
}
