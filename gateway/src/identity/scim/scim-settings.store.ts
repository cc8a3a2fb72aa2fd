import { sha256Hex, type Clock, type Db, type Queryable, isoTimestamp } from '@gw/platform';
import type { ScimSettings, ScimSettingsPut, ScimSettingsView } from './scim-settings.schema.js';
import { recomputeMappings } from './scim-mapping.js';

interface SettingsRow {
  bearer_hash: string | null;
  admin_group: string | null;
  group_team_map: Record<string, string> | string;
  updated_at: Date | string;
}

// One provisioning configuration per deployment; the column leaves room for a tenant's own in fleet mode.
const deploymentTenant = '';
const unconfigured: ScimSettings = { bearerHash: null, adminGroup: null, groupTeamMap: {}, updatedAt: null };

/** Read from the store on every use (one indexed row): a rotated bearer is refused on the next request on every replica. */
export async function readScimSettings(db: Queryable): Promise<ScimSettings> {
  const { rows } = await db.query<SettingsRow>(
    'SELECT bearer_hash, admin_group, group_team_map, updated_at FROM gw_scim_settings WHERE tenant = $1',
    [deploymentTenant],
  );
  const row = rows[0];
  if (!row) return unconfigured;
  const map =
    typeof row.group_team_map === 'string'
      ? (JSON.parse(row.group_team_map) as Record<string, string>)
      : row.group_team_map;
  return {
    bearerHash: row.bearer_hash,
    adminGroup: row.admin_group,
    groupTeamMap: map,
    updatedAt: isoTimestamp(row.updated_at),
  };
}

/** The admin view: never the bearer or its hash. */
export function scimSettingsView(settings: ScimSettings): ScimSettingsView {
  return {
    configured: settings.bearerHash !== null,
    adminGroup: settings.adminGroup,
    groupTeamMap: { ...settings.groupTeamMap },
    updatedAt: settings.updatedAt,
  };
}

export class ScimSettingsStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  read(): Promise<ScimSettings> {
    return readScimSettings(this.db);
  }

  /** Omitted fields keep their value; a changed group mapping is applied to every provisioned user at once. */
  async update(changes: ScimSettingsPut, actor: string): Promise<ScimSettings> {
    return this.db.transaction(async (tx) => {
      const current = await readScimSettings(tx);
      const next: ScimSettings = {
        bearerHash: changes.bearerToken === undefined ? current.bearerHash : sha256Hex(changes.bearerToken),
        adminGroup: changes.adminGroup === undefined ? current.adminGroup : changes.adminGroup,
        groupTeamMap: changes.groupTeamMap ?? current.groupTeamMap,
        updatedAt: new Date(this.clock.now()).toISOString(),
      };
      await tx.query(
        `INSERT INTO gw_scim_settings (tenant, bearer_hash, admin_group, group_team_map, updated_by, updated_at) VALUES ($1, $2, $3, $4::jsonb, $5, $6)
         ON CONFLICT (tenant) DO UPDATE SET bearer_hash = EXCLUDED.bearer_hash, admin_group = EXCLUDED.admin_group,
           group_team_map = EXCLUDED.group_team_map, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
        [deploymentTenant, next.bearerHash, next.adminGroup, JSON.stringify(next.groupTeamMap), actor, next.updatedAt],
      );
      await recomputeMappings(tx, next, null, new Date(this.clock.now()));
      return next;
    });
  }
}
