import { gatewayError } from '../../errors.js';
import { identityPutBody, runtimeAllowlist, settingsPutBody, settingsResponse } from './settings.schema.js';
import type { SettingsStore, StoredSettings } from './settings.store.js';
import { adminErrors } from '../error-envelope.js';
import { defineOperation, type AdminOperation } from '../operation.js';
import { hasScope } from '../principal.js';

export interface SettingsOperationDeps {
  settings: SettingsStore;
  fleetMode: boolean;
  /** Whether an organization provider key is stored: seat overflow bills it, so it cannot be enabled before. */
  organizationKeyStored: () => boolean;
}

const flatten = (stored: StoredSettings) => ({
  ...stored.settings,
  updatedAt: stored.updatedAt,
  updatedBy: stored.updatedBy,
});

/** Runtime settings and identity mode. */
export function settingsOperations({
  settings,
  fleetMode,
  organizationKeyStored,
}: SettingsOperationDeps): AdminOperation[] {
  return [
    defineOperation({
      id: 'settings.get',
      summary: 'Runtime settings',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/settings' }],
      v1: { path: '/admin/v1/settings' },
      xScope: 'deployment',
      response: settingsResponse,
      handler: async () => flatten(await settings.read()),
    }),
    defineOperation({
      id: 'settings.update',
      summary:
        'Change runtime settings (omitted fields kept; storeCapacityBytes null clears). On v1, seatOverflow and seatOverflowHourlyMaxRequests need settings:write, every other field settings:content',
      method: 'PUT',
      capability: 'content:manage',
      legacy: [{ path: '/admin/settings' }],
      v1: { path: '/admin/v1/settings' },
      xScope: 'deployment',
      body: settingsPutBody,
      response: settingsResponse,
      handler: async ({ body, principal }) => {
        // The legacy gate (content:manage) already carries settings:content; on v1 the field decides.
        const contentField = Object.keys(body).find((name) => !runtimeAllowlist.has(name));
        if (contentField && !hasScope(principal, 'settings:content'))
          throw adminErrors.insufficientScope('settings:content');
        if (body.seatOverflow === true && !organizationKeyStored()) {
          throw gatewayError(
            'conflict',
            'seatOverflow needs the organization provider key stored first (PUT /admin/v1/providers/anthropic/key with an Anthropic API key): overflow bills it.',
          );
        }
        return flatten(await settings.update(body, principal.actor));
      },
    }),
    defineOperation({
      id: 'settings.identity',
      summary:
        'Set the identity mode: enrolled (a minted key on every request) or network-trusted (isolated networks; single-tenant only)',
      method: 'PUT',
      capability: 'identity:manage',
      legacy: [{ path: '/admin/settings/identity' }],
      xScope: 'deployment',
      auditCategory: 'settings',
      body: identityPutBody,
      response: settingsResponse,
      handler: async ({ body, principal }) => {
        // Network-trusted is single-tenant only; in fleet mode a keyless request still answers 401.
        if (fleetMode && body.identityMode === 'network-trusted')
          throw gatewayError(
            'conflict',
            'network-trusted identity mode is single-tenant only; this gateway runs in fleet mode',
          );
        return flatten(await settings.update({ identityMode: body.identityMode }, principal.actor));
      },
    }),
  ];
}
