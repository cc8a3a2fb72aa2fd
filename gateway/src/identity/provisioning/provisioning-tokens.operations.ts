import { gatewayErrors } from '../../errors.js';
import { adminErrors } from '../../admin/error-envelope.js';
import { okResponse } from '@gw/contracts/management';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { hasScope, type Principal } from '../../admin/principal.js';
import {
  defaultOverlapSeconds,
  mintedProvisioningTokenResponse,
  provisioningTokenCreateBody,
  provisioningTokenIdParams,
  provisioningTokenListResponse,
  provisioningTokenRecord,
  provisioningTokenRotateBody,
  type ProvisioningScope,
} from './provisioning-token.schema.js';
import type { ProvisioningTokenStore } from './provisioning-token.store.js';

export interface ProvisioningTokenOperationDeps {
  tokens: ProvisioningTokenStore;
}

// A token never does more than its minter could configure: a `scim` token creates users and sets group (and so role)
// mappings, which only the holder of the SCIM configuration may hand out; an `enrollment` token mints enrollment links.
const scopeNeededToGrant: Readonly<Record<ProvisioningScope, string>> = {
  scim: 'sso:write',
  enrollment: 'enrollment:write',
};

function assertGrantable(scopes: readonly ProvisioningScope[], principal: Principal): void {
  for (const scope of scopes) {
    const needed = scopeNeededToGrant[scope];
    if (!hasScope(principal, needed)) throw adminErrors.insufficientScope(needed);
  }
}

/** Provisioning tokens for automation that provisions (src/identity/provisioning/README.md). */
export function provisioningTokenOperations({ tokens }: ProvisioningTokenOperationDeps): AdminOperation[] {
  return [
    defineOperation({
      id: 'provisioningTokens.create',
      summary: 'Mint a scoped provisioning token for automation (raw token returned once)',
      method: 'POST',
      capability: 'provisioning:manage',
      legacy: [{ path: '/admin/provisioning-tokens' }],
      v1: { path: '/admin/v1/provisioning/tokens' },
      xScope: 'deployment',
      successStatus: 201,
      body: provisioningTokenCreateBody,
      response: mintedProvisioningTokenResponse,
      handler: async ({ body, principal, reply }) => {
        assertGrantable(body.scopes, principal);
        // The raw token is in this answer: no cache may keep it.
        void reply.header('cache-control', 'no-store');
        return tokens.create({ label: body.label ?? null, scopes: body.scopes, createdBy: principal.actor });
      },
    }),
    defineOperation({
      id: 'provisioningTokens.list',
      summary: 'List provisioning tokens (metadata only, never hashes)',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/provisioning-tokens' }],
      v1: { path: '/admin/v1/provisioning/tokens' },
      xScope: 'deployment',
      response: provisioningTokenListResponse,
      handler: async () => ({ tokens: await tokens.list() }),
    }),
    defineOperation({
      id: 'provisioningTokens.get',
      summary: 'Read one provisioning token (metadata only)',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/provisioning-tokens/:id' }],
      v1: { path: '/admin/v1/provisioning/tokens/{id}' },
      xScope: 'deployment',
      params: provisioningTokenIdParams,
      response: provisioningTokenRecord,
      handler: async ({ params }) => {
        const record = await tokens.get(params.id);
        if (!record) throw gatewayErrors.notFound(`provisioning token ${params.id}`);
        return record;
      },
    }),
    defineOperation({
      id: 'provisioningTokens.rotate',
      summary:
        'Replace a provisioning token; the old one keeps working for the overlap window (raw token returned once)',
      method: 'POST',
      capability: 'provisioning:manage',
      legacy: [{ path: '/admin/provisioning-tokens/:id/rotate' }],
      v1: { path: '/admin/v1/provisioning/tokens/{id}/rotate' },
      xScope: 'deployment',
      params: provisioningTokenIdParams,
      body: provisioningTokenRotateBody,
      response: mintedProvisioningTokenResponse,
      handler: async ({ params, body, principal, reply }) => {
        const current = await tokens.get(params.id);
        if (!current || current.status === 'revoked') throw gatewayErrors.notFound(`provisioning token ${params.id}`);
        assertGrantable(current.scopes, principal);
        const rotated = await tokens.rotate(params.id, body?.overlapSeconds ?? defaultOverlapSeconds, principal.actor);
        if (!rotated) throw gatewayErrors.notFound(`provisioning token ${params.id}`);
        void reply.header('cache-control', 'no-store');
        return rotated;
      },
    }),
    defineOperation({
      id: 'provisioningTokens.revoke',
      summary: 'Revoke a provisioning token (and any overlapping predecessor) on the next request on every replica',
      method: 'DELETE',
      capability: 'provisioning:manage',
      legacy: [{ path: '/admin/provisioning-tokens/:id' }],
      v1: { path: '/admin/v1/provisioning/tokens/{id}' },
      xScope: 'deployment',
      params: provisioningTokenIdParams,
      response: okResponse,
      handler: async ({ params, principal }) => {
        if (!(await tokens.revoke(params.id, principal.actor)))
          throw gatewayErrors.notFound(`provisioning token ${params.id}`);
        return { ok: true as const };
      },
    }),
  ];
}
