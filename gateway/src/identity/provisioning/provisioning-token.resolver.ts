import { gatewayError } from '../../errors.js';
import { bearerOf, type Principal, type PrincipalResolver } from '../../admin/principal.js';
import type { ProvisioningTokenRecord } from './provisioning-token.schema.js';
import { looksLikeProvisioningToken, refusalMessage, type ProvisioningTokenStore } from './provisioning-token.store.js';

/**
 * On the admin plane a provisioning token reaches enrollment links through `/admin/v1` only, and only with the
 * `enrollment` scope; it has no capabilities, so every legacy `/admin/*` gate refuses it.
 */
export function principalOfProvisioningToken(record: ProvisioningTokenRecord): Principal {
  return {
    kind: 'api-key',
    actor: `provisioning:${record.id}`,
    capabilities: new Set(),
    scopes: new Set(record.scopes.includes('enrollment') ? ['enrollment:read', 'enrollment:write'] : []),
    deploymentOwner: true,
    tenant: null,
    legacyAccess: false,
  };
}

/** `prv_` bearers on the admin plane, read on every request; a refused token is a 401 that says why. */
export function provisioningTokenResolver(tokens: ProvisioningTokenStore): PrincipalResolver {
  return {
    async resolve(request) {
      const bearer = bearerOf(request);
      if (!bearer || !looksLikeProvisioningToken(bearer)) return null;
      let match;
      try {
        match = await tokens.match(bearer);
      } catch (error) {
        request.log.warn({ err: error }, 'provisioning token store unavailable');
        throw gatewayError('provisioning_token_store_unavailable');
      }
      if (match.outcome !== 'accepted') throw gatewayError('unauthenticated', refusalMessage(match));
      return principalOfProvisioningToken(match.record);
    },
  };
}
