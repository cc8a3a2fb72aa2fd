import { z } from 'zod';
import { capabilities } from '../../admin/capabilities.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { effectiveScopes } from '../../admin/principal.js';
import { roles } from '../../admin/roles.js';

const meResponse = z.object({
  actor: z.string().describe('How writes by this caller are attributed: admin-token, apikey:<id>, sso:<email>'),
  kind: z.enum(['admin-token', 'api-key', 'sso']),
  keyId: z.string().nullable(),
  role: z.enum(roles).nullable(),
  tenant: z.string().nullable(),
  deploymentOwner: z.boolean().describe('false for tenant-bound principals in fleet mode'),
  capabilities: z.array(z.enum(capabilities)).describe('Legacy /admin/* capabilities (empty for a scope-minted key)'),
  scopes: z.array(z.string()).describe('Management API v1 scopes'),
});

/** `GET /admin/me` and `GET /admin/v1/me` (spec 000 §4.6, §4.8): identity, deploymentOwner, capabilities and scopes. */
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
