import type { Clock } from '@gw/platform';
import { gatewayError, gatewayErrors } from '../../../errors.js';
import type { KeyStore } from '../key.store.js';
import {
  keyCreateBody,
  keyIdParams,
  keyListQuery,
  keyListResponse,
  keyPatchBody,
  keyRecord,
  mintedKeyResponse,
  okResponse,
  serviceKeyCreateBody,
} from '../key.schema.js';
import { defineOperation, type AdminOperation } from '../../../admin/operation.js';
import { keyChangesFor } from './key-changes.js';
import { keyReachOf } from './key-reach.js';

export interface KeyOperationDeps {
  keys: KeyStore;
  clock: Clock;
  /** `GW_MULTI_TENANT=true`: a tenant-bound principal reaches its tenant's keys only. */
  fleetMode: boolean;
}

const dayMs = 86_400_000;

/** Client and service key lifecycle. */
export function keyOperations({ keys, clock, fleetMode }: KeyOperationDeps): AdminOperation[] {
  const reachOf = keyReachOf(fleetMode);
  // Another tenant's key answers exactly as a missing one: its existence is not revealed.
  const mustExist = async (id: string, reach: ReturnType<typeof reachOf>) => {
    const record = await keys.get(id, reach);
    if (!record) throw gatewayErrors.notFound(`key ${id}`);
    return record;
  };

  return [
    defineOperation({
      id: 'serviceKeys.create',
      summary: 'Mint a service key (raw key returned once)',
      method: 'POST',
      capability: 'clientkeys:manage',
      legacy: [{ path: '/admin/service-keys' }],
      successor: '/admin/v1/keys',
      xScope: 'tenant',
      successStatus: 201,
      body: serviceKeyCreateBody,
      response: mintedKeyResponse,
      handler: async ({ body, principal }) =>
        keys.create({
          type: 'service',
          source: 'service',
          name: body.name,
          team: body.team,
          monthlyBudgetUsd: body.monthlyBudgetUsd ?? null,
          tenant: principal.tenant,
          createdBy: principal.actor,
        }),
    }),
    defineOperation({
      id: 'keys.create',
      summary: 'Mint a client key, or a service key with type "service" (raw key returned once)',
      method: 'POST',
      capability: 'clientkeys:manage',
      legacy: [{ path: '/admin/client-keys' }],
      v1: { path: '/admin/v1/keys' },
      xScope: 'tenant',
      successStatus: 201,
      body: keyCreateBody,
      response: mintedKeyResponse,
      handler: async ({ body, principal }) => {
        // A key belongs to its minter's tenant (null for deployment principals), like an admin API key.
        const owner = { tenant: principal.tenant, createdBy: principal.actor };
        if (body.type === 'service') {
          return keys.create({
            type: 'service',
            source: 'service',
            name: body.name,
            team: body.team,
            monthlyBudgetUsd: body.monthlyBudgetUsd ?? null,
            ...owner,
          });
        }
        const expiresAt = body.expiresInDays ? new Date(clock.now() + body.expiresInDays * dayMs) : null;
        return keys.create({
          type: 'client',
          source: 'admin',
          user: body.user,
          team: body.team,
          label: body.label ?? null,
          expiresAt,
          ...owner,
        });
      },
    }),
    defineOperation({
      id: 'keys.list',
      summary: 'List keys (metadata only); ?type=service filters to service keys',
      method: 'GET',
      capability: 'config:read',
      legacy: [
        { path: '/admin/service-keys', fixedQuery: { type: 'service' } },
        { path: '/admin/client-keys', fixedQuery: { type: 'client' } },
      ],
      v1: { path: '/admin/v1/keys' },
      xScope: 'tenant',
      query: keyListQuery,
      response: keyListResponse,
      handler: async ({ query, principal }) => ({ keys: await keys.list({ type: query.type, ...reachOf(principal) }) }),
    }),
    defineOperation({
      id: 'keys.get',
      summary: 'Read one key (metadata only)',
      method: 'GET',
      capability: 'config:read',
      v1: { path: '/admin/v1/keys/{id}' },
      xScope: 'tenant',
      params: keyIdParams,
      response: keyRecord,
      handler: async ({ params, principal }) => mustExist(params.id, reachOf(principal)),
    }),
    defineOperation({
      id: 'keys.update',
      summary:
        'Change a key’s label, team or expiry, or a service key’s name or budget (omitted kept, null clears); 409 on a revoked key',
      method: 'PATCH',
      capability: 'clientkeys:manage',
      v1: { path: '/admin/v1/keys/{id}' },
      xScope: 'tenant',
      params: keyIdParams,
      body: keyPatchBody,
      response: keyRecord,
      handler: async ({ params, body, principal }) => {
        const reach = reachOf(principal);
        const record = await mustExist(params.id, reach);
        const changes = keyChangesFor(record, body);
        // Also covers a revocation that lands between the read and the write.
        const updated = await keys.update(params.id, changes, reach);
        if (!updated)
          throw gatewayError('conflict', `the key ${params.id} is revoked; a revoked key cannot be changed`);
        return updated;
      },
    }),
    defineOperation({
      id: 'keys.revoke',
      summary: 'Revoke a key; refused on the next request on every replica',
      method: 'DELETE',
      capability: 'clientkeys:manage',
      legacy: [{ path: '/admin/service-keys/:id' }, { path: '/admin/client-keys/:id' }],
      v1: { path: '/admin/v1/keys/{id}' },
      xScope: 'tenant',
      params: keyIdParams,
      response: okResponse,
      handler: async ({ params, principal }) => {
        if (!(await keys.revoke(params.id, reachOf(principal)))) throw gatewayErrors.notFound(`key ${params.id}`);
        return { ok: true as const };
      },
    }),
    defineOperation({
      id: 'keys.rotate',
      summary: 'Replace a key’s secret: the fresh key is returned once and the old one stops working at once',
      method: 'POST',
      capability: 'clientkeys:manage',
      v1: { path: '/admin/v1/keys/{id}/rotate' },
      xScope: 'tenant',
      params: keyIdParams,
      response: mintedKeyResponse,
      handler: async ({ params, principal }) => {
        const reach = reachOf(principal);
        const record = await mustExist(params.id, reach);
        const rotated = await keys.rotate(params.id, record.type, reach);
        if (!rotated) throw gatewayError('conflict', `key ${params.id} is revoked and cannot be rotated`);
        return rotated;
      },
    }),
  ];
}
