import { meResponse } from '@gw/contracts/management';
import { capabilities } from '../../admin/capabilities.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { effectiveScopes } from '../../admin/principal.js';

/** `GET /admin/me` and `GET /admin/v1/me`: identity, deploymentOwner, capabilities and scopes. */
export function meOperations({ fleetMode }: { fleetMode: boolean }): AdminOperation[] {
  return [
    defineOperation({
      id: 'me.get',
      summary: "The caller's identity, deploymentOwner, capabilities and v1 scopes",
      method: 'GET',
      capability: null,
      legacy: [{ path: '/admin/me' }],
      v1: { path: '/admin/v1/me', scope: null },
      xScope: 'tenant',
      // A console route, not a data route: no Deprecation header.
      deprecatedLegacy: false,
      response: meResponse,
      handler: async ({ principal }) => ({
        actor: principal.actor,
        kind: principal.kind,
        keyId: principal.keyId ?? null,
        role: principal.role ?? null,
        tenant: principal.tenant,
        deploymentOwner: principal.deploymentOwner && !(fleetMode && principal.tenant !== null),
        capabilities: capabilities.filter((capability) => principal.capabilities.has(capability)),
        scopes: effectiveScopes(principal),
      }),
    }),
  ];
}
