import type { FastifyInstance } from 'fastify';
import { AppError, normalizeRequestError, type Db } from '@gw/platform';
import { ScimError, badRequest, notFound, scimErrorBody } from './protocol/scim-error.js';
import type { ProvisioningTokenStore } from '../provisioning/provisioning-token.store.js';
import { authenticateScim } from './scim-auth.js';
import { discoveryList, resourceTypes, schemaDocuments, serviceProviderConfig } from './scim-discovery.js';
import { scimGroupRoutes } from './scim-groups.routes.js';
import { scimBase, scimRouteSchema, type IdParams } from './scim-route-support.js';
import type { ScimGroupStore } from './scim-groups.store.js';
import { scimUserRoutes } from './scim-users.routes.js';
import type { ScimUserStore } from './scim-users.store.js';

export interface ScimPluginOptions {
  db: Db;
  users: ScimUserStore;
  groups: ScimGroupStore;
  /** `prv_` tokens with the `scim` scope are accepted beside the configured bearer. */
  provisioningTokens?: ProvisioningTokenStore;
}

const scimMediaType = 'application/scim+json';
// Provisioning bodies are single resources; a group of 10,000 members is about 1 MB.
const scimBodyLimitBytes = 2 * 1024 * 1024;

/** A SCIM error from whatever a route threw: its own status and scimType, or the request failure's status. */
function toScimError(thrown: unknown): { error: ScimError; internal: boolean } {
  if (thrown instanceof ScimError) return { error: thrown, internal: false };
  // A value the store refuses (a NUL character, a number out of range) is the identity provider's to fix: 400.
  const failure = normalizeRequestError(thrown, { service: 'gateway', storeOutages: true, refusedValues: true });
  const scimType =
    failure.kind === 'invalid_json'
      ? 'invalidSyntax'
      : failure.kind === 'invalid_request' || failure.kind === 'value_refused'
        ? 'invalidValue'
        : undefined;
  const message =
    failure.error instanceof AppError || failure.kind !== 'internal'
      ? failure.message
      : 'The gateway failed to handle the SCIM request.';
  return { error: new ScimError(failure.status, message, scimType), internal: failure.kind === 'internal' };
}

/**
 * Inbound SCIM v2 (`/scim/v2/*`), registered under that prefix: the SCIM bearer on every route, SCIM
 * media type in and out, and RFC 7644's error envelope for every failure.
 */
export async function scimPlugin(app: FastifyInstance, options: ScimPluginOptions): Promise<void> {
  app.setErrorHandler(async (thrown, request, reply) => {
    const { error, internal } = toScimError(thrown);
    if (internal) request.log.error({ err: thrown }, 'unhandled SCIM error');
    if (error.status === 401) reply.header('www-authenticate', 'Bearer realm="scim"');
    return reply.code(error.status).type(scimMediaType).send(scimErrorBody(error));
  });
  app.setNotFoundHandler(async (request, reply) =>
    reply
      .code(404)
      .type(scimMediaType)
      .send(scimErrorBody(notFound(`No SCIM endpoint ${request.method} ${request.url.split('?')[0] ?? ''}.`))),
  );

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    [scimMediaType, 'application/json'],
    { parseAs: 'string', bodyLimit: scimBodyLimitBytes },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      // A DELETE or GET may carry the media type with no body.
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text) as unknown);
      } catch {
        done(badRequest('The request body is not valid JSON.', 'invalidSyntax'), undefined);
      }
    },
  );
  app.addHook('onRequest', async (request) => authenticateScim(options.db, request, options.provisioningTokens));
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode !== 204) reply.type(scimMediaType);
    return payload;
  });

  app.get('/ServiceProviderConfig', { schema: scimRouteSchema('What this SCIM server supports') }, async (request) =>
    serviceProviderConfig(scimBase(request)),
  );
  app.get('/ResourceTypes', { schema: scimRouteSchema('User and Group resource types') }, async (request) =>
    discoveryList(resourceTypes(scimBase(request))),
  );
  app.get<{ Params: IdParams }>(
    '/ResourceTypes/:id',
    { schema: scimRouteSchema('One resource type') },
    async (request) => {
      const found = resourceTypes(scimBase(request)).find((type) => type.id === request.params.id);
      if (!found) throw notFound(`Resource type ${request.params.id} not found.`);
      return found;
    },
  );
  app.get('/Schemas', { schema: scimRouteSchema('Schemas of the attributes kept') }, async (request) =>
    discoveryList(schemaDocuments(scimBase(request))),
  );
  app.get<{ Params: IdParams }>('/Schemas/:id', { schema: scimRouteSchema('One schema') }, async (request) => {
    const found = schemaDocuments(scimBase(request)).find((schema) => schema.id === request.params.id);
    if (!found) throw notFound(`Schema ${request.params.id} not found.`);
    return found;
  });

  await app.register(scimUserRoutes, { users: options.users });
  await app.register(scimGroupRoutes, { groups: options.groups });
}
