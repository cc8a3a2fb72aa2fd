import { aliasDocument, modelsDocument, routingDocument } from '@gw/contracts/management';
import type { RoutingStore } from './routing.store.js';
import { parseRoutingConfig } from './routing-config.js';
import { cacheSettingsOfConfig } from './cache-settings.js';
import { defineOperation, type AdminOperation } from '../admin/operation.js';
import { gatewayError } from '../errors.js';

/** Routing config, aliases and per-model pricing/ceilings, each with its legacy twin. */
export function routingOperations({ routing }: { routing: RoutingStore }): AdminOperation[] {
  return [
    defineOperation({
      id: 'routing.get',
      summary: 'Read the default routing (default provider, default model, routing config)',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/routing-config' }],
      v1: { path: '/admin/v1/routing' },
      xScope: 'deployment',
      response: routingDocument,
      handler: async () => ({ defaultModel: null, config: null, cache: null, ...routing.documents.default }),
    }),
    defineOperation({
      id: 'routing.put',
      summary: 'Replace the default routing; the config is validated (400 on credentials or bad shape)',
      method: 'PUT',
      capability: 'routing:manage',
      legacy: [{ path: '/admin/routing-config' }],
      v1: { path: '/admin/v1/routing' },
      xScope: 'deployment',
      body: routingDocument,
      response: routingDocument,
      handler: async ({ body, principal }) => {
        if (body.config) {
          parseRoutingConfig(body.config);
          cacheSettingsOfConfig(body.config);
        }
        await routing.put(
          'default',
          {
            defaultProvider: body.defaultProvider,
            defaultModel: body.defaultModel ?? null,
            config: body.config ?? null,
            cache: body.cache ?? null,
          },
          principal.actor,
        );
        return { defaultModel: null, config: null, cache: null, ...routing.documents.default };
      },
    }),
    defineOperation({
      id: 'routing.aliases.get',
      summary: 'Read model aliases',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/model-aliases' }],
      v1: { path: '/admin/v1/routing/aliases' },
      xScope: 'deployment',
      response: aliasDocument,
      handler: async () => ({ aliases: routing.documents.aliases }),
    }),
    defineOperation({
      id: 'routing.aliases.put',
      summary: 'Replace model aliases',
      method: 'PUT',
      capability: 'routing:manage',
      legacy: [{ path: '/admin/model-aliases' }],
      v1: { path: '/admin/v1/routing/aliases' },
      xScope: 'deployment',
      body: aliasDocument,
      response: aliasDocument,
      handler: async ({ body, principal }) => {
        await routing.put('aliases', body.aliases, principal.actor);
        return { aliases: routing.documents.aliases };
      },
    }),
    defineOperation({
      id: 'routing.models.get',
      summary: 'Read per-model pricing and ceilings (overrides of the built-in table)',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/pricing' }],
      v1: { path: '/admin/v1/routing/models' },
      xScope: 'deployment',
      response: modelsDocument,
      handler: async () => ({ models: routing.documents.models }),
    }),
    defineOperation({
      id: 'routing.models.put',
      summary: 'Replace per-model pricing and ceilings',
      method: 'PUT',
      capability: 'routing:manage',
      legacy: [{ path: '/admin/pricing' }],
      v1: { path: '/admin/v1/routing/models' },
      xScope: 'deployment',
      body: modelsDocument,
      response: modelsDocument,
      handler: async ({ body, principal }) => {
        const models = Object.fromEntries(
          Object.entries(body.models).map(([model, facts]) => [
            model,
            {
              ...facts,
              cacheReadPerMTok: facts.cacheReadPerMTok ?? facts.inputPerMTok,
              cacheWritePerMTok: facts.cacheWritePerMTok ?? facts.inputPerMTok,
            },
          ]),
        );
        if (Object.keys(models).length > 5_000) throw gatewayError('invalid_request', 'at most 5000 model entries');
        await routing.put('models', models, principal.actor);
        return { models: routing.documents.models };
      },
    }),
  ];
}
