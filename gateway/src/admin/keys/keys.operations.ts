import type { Clock } from '@gw/platform';
import { gatewayErrors } from '../../errors.js';
import type { KeyStore } from '../../keys/key.store.js';
import { keyCreateBody, keyIdParams, keyListQuery, keyListResponse, keyPatchBody, keyRecord, mintedKeyResponse, okResponse, serviceKeyCreateBody } from '../../keys/key.schema.js';
import { defineOperation, type AdminOperation } from '../operation.js';

export interface KeyOperationDeps {
  keys: KeyStore;
  clock: Clock;
}

const dayMs = 86_400_000;

/** Client and service key lifecycle (spec 000 §2, §3, §4.5, §4.8 `keys`). */
export function keyOperations({ keys, clock }: KeyOperationDeps): AdminOperation[] {
  const mustExist = async (id: string) => {
    const record = await keys.get(id);
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
        keys.create({ type: 'service', source: 'service', name: body.name, team: body.team, monthlyBudgetUsd: body.monthlyBudgetUsd ?? null, createdBy: principal.actor }),
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
        if (body.type === 'service') {
          return keys.create({ type: 'service', source: 'service', name: body.name, team: body.team, monthlyBudgetUsd: body.monthlyBudgetUsd ?? null, createdBy: principal.actor });
        }
        const expiresAt = body.expiresInDays ? new Date(clock.now() + body.expiresInDays * dayMs) : null;
        return keys.create({ type: 'client', source: 'admin', user: body.user, team: body.team, label: body.label ?? null, expiresAt, createdBy: principal.actor });
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
      handler: async ({ query }) => ({ keys: await keys.list({ type: query.type }) }),
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
      handler: async ({ params }) => mustExist(params.id),
    }),
    defineOperation({
      id: 'keys.update',
      summary: 'Change a key’s label, name, team, budget or expiry (omitted kept, null clears)',
      method: 'PATCH',
      capability: 'clientkeys:manage',
      v1: { path: '/admin/v1/keys/{id}' },
      xScope: 'tenant',
      params: keyIdParams,
      body: keyPatchBody,
      response: keyRecord,
      handler: async ({ params, body }) => {
        await mustExist(params.id);
        const { monthlyBudgetUsd, ...rest } = body;
        const changes = { ...rest, ...(monthlyBudgetUsd === undefined ? {} : { monthlyBudgetUsd }) };
        return (await keys.update(params.id, changes)) ?? mustExist(params.id);
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
      handler: async ({ params }) => {
        if (!(await keys.revoke(params.id))) throw gatewayErrors.notFound(`key ${params.id}`);
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
      handler: async ({ params }) => {
        const record = await mustExist(params.id);
        const rotated = await keys.rotate(params.id, record.type);
        if (!rotated) throw gatewayErrors.conflict(`key ${params.id} is revoked and cannot be rotated`);
        return rotated;
      },
    }),
  ];
}
