import { scimSettingsPutBody, scimSettingsResponse } from './scim-settings.schema.js';
import { scimSettingsView, type ScimSettingsStore } from './scim-settings.store.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';

/**
 * SCIM provisioning settings (the contract's "SCIM settings", `/admin/scim/settings` for the deployment owner
 * `/admin/v1/sso/scim` with sso:read and sso:write). The bearer is write-only: only its SHA-256 hash is stored and no
 * answer or audit entry carries either.
 */
export function scimSettingsOperations({ settings }: { settings: ScimSettingsStore }): AdminOperation[] {
  return [
    defineOperation({
      id: 'scim.settings.get',
      summary:
        'SCIM provisioning settings: whether a bearer is set, the administrator group and the group-to-team map (never the bearer)',
      method: 'GET',
      capability: 'identity:manage',
      legacy: [{ path: '/admin/scim/settings' }],
      v1: { path: '/admin/v1/sso/scim' },
      xScope: 'deployment',
      response: scimSettingsResponse,
      handler: async () => scimSettingsView(await settings.read()),
    }),
    defineOperation({
      id: 'scim.settings.update',
      summary:
        'Set the SCIM bearer (omit to keep it), the administrator group and the group-to-team map; mappings of provisioned users are recomputed',
      method: 'PUT',
      capability: 'identity:manage',
      legacy: [{ path: '/admin/scim/settings' }],
      v1: { path: '/admin/v1/sso/scim' },
      xScope: 'deployment',
      auditCategory: 'sso',
      body: scimSettingsPutBody,
      response: scimSettingsResponse,
      handler: async ({ body, principal }) => scimSettingsView(await settings.update(body, principal.actor)),
    }),
  ];
}
