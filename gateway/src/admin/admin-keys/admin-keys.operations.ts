import type { Clock } from '@gw/platform';
import { gatewayErrors } from '../../errors.js';
import { okResponse } from '@gw/contracts/management';
import { defineOperation, type AdminOperation } from '../operation.js';
import { assertGrantable } from './admin-key.grant.js';
import {
  adminKeyCreateBody,
  adminKeyIdParams,
  adminKeyListResponse,
  adminKeyRecord,
  mintedAdminKeyResponse,
} from './admin-key.schema.js';
import type { AdminKeyStore } from './admin-key.store.js';

export interface AdminKeyOperationDeps {
  adminKeys: AdminKeyStore;
  clock: Clock;
}

// Admin API key default lifetime.
const defaultLifetimeDays = 90;
const dayMs = 86_400_000;

/** Admin API keys. */
export function adminKeyOperations({ adminKeys, clock }: AdminKeyOperationDeps): AdminOperation[] {
  return [
    defineOperation({
      id: 'adminKeys.create',
      summary: 'Mint an admin API key with a capability subset or v1 scopes (raw key returned once)',
      method: 'POST',
      capability: 'adminkeys:manage',
      legacy: [{ path: '/admin/api-keys' }],
      v1: { path: '/admin/v1/admin-keys' },
      xScope: 'deployment',
      successStatus: 201,
      body: adminKeyCreateBody,
      response: mintedAdminKeyResponse,
      handler: async ({ body, principal }) => {
        assertGrantable(body, principal);
        const expiresAt = body.neverExpires
          ? null
          : new Date(clock.now() + (body.expiresInDays ?? defaultLifetimeDays) * dayMs);
        return adminKeys.create({
          label: body.label ?? null,
          caps: body.caps ? [...new Set(body.caps)] : null,
          scopes: body.scopes ? [...new Set(body.scopes)] : null,
          // A key never reaches beyond its minter: a tenant-bound minter mints tenant-bound keys.
          tenant: principal.tenant,
          expiresAt,
          createdBy: principal.actor,
        });
      },
    }),
    defineOperation({
      id: 'adminKeys.list',
      summary: 'List admin API keys (metadata only, never hashes)',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/api-keys' }],
      v1: { path: '/admin/v1/admin-keys' },
      xScope: 'deployment',
      response: adminKeyListResponse,
      handler: async () => ({ keys: await adminKeys.list() }),
    }),
    defineOperation({
      id: 'adminKeys.get',
      summary: 'Read one admin API key (metadata only)',
      method: 'GET',
      capability: 'config:read',
      v1: { path: '/admin/v1/admin-keys/{id}' },
      xScope: 'deployment',
      params: adminKeyIdParams,
      response: adminKeyRecord,
      handler: async ({ params }) => {
        const record = await adminKeys.get(params.id);
        if (!record) throw gatewayErrors.notFound(`admin key ${params.id}`);
        return record;
      },
    }),
    defineOperation({
      id: 'adminKeys.revoke',
      summary: 'Revoke an admin API key; refused on the next request on every replica',
      method: 'DELETE',
      capability: 'adminkeys:manage',
      legacy: [{ path: '/admin/api-keys/:id' }],
      v1: { path: '/admin/v1/admin-keys/{id}' },
      xScope: 'deployment',
      params: adminKeyIdParams,
      response: okResponse,
      handler: async ({ params, principal }) => {
        if (!(await adminKeys.revoke(params.id, principal.actor)))
          throw gatewayErrors.notFound(`admin key ${params.id}`);
        return { ok: true as const };
      },
    }),
  ];
}
