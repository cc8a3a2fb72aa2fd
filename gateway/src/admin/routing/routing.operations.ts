import { z } from 'zod';
import type { RoutingStore } from '../../routing/routing.store.js';
import { defineOperation, type AdminOperation } from '../operation.js';

const routingDocument = z.strictObject({
  defaultProvider: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/).nullable().describe('Provider used when neither x-gw-provider nor x-gw-config selects one'),
});

/** Default routing (issue 3 holds `defaultProvider`; the routing engine extends this document). */
export function routingOperations({ routing }: { routing: RoutingStore }): AdminOperation[] {
  return [
    defineOperation({
      id: 'routing.get',
      summary: 'Read the routing configuration',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/routing-config' }],
      v1: { path: '/admin/v1/routing' },
      xScope: 'deployment',
      response: routingDocument,
      handler: async () => routing.documents.default,
    }),
    defineOperation({
      id: 'routing.put',
      summary: 'Replace the routing configuration',
      method: 'PUT',
      capability: 'providerkeys:manage',
      legacy: [{ path: '/admin/routing-config' }],
      v1: { path: '/admin/v1/routing' },
      xScope: 'deployment',
      body: routingDocument,
      response: routingDocument,
      handler: async ({ body, principal }) => {
        await routing.put('default', body, principal.actor);
        return routing.documents.default;
      },
    }),
  ];
}
