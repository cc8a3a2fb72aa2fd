import type { FastifyInstance } from 'fastify';
import { notFound as scimNotFound } from './protocol/scim-error.js';
import { applyUserPatch } from './protocol/user-patch.js';
import { userAttributesOf } from './scim-bodies.js';
import { listQueryOf } from './scim-paging.js';
import { listResponse, userResource } from './scim-resources.js';
import { userFilterColumns, type ScimUserRecord, type ScimUserStore } from './scim-users.store.js';
import { scimBase, scimRouteSchema, type IdParams } from './scim-route-support.js';

const notFound = (id: string) => scimNotFound(`User ${id} not found.`);

/** `/scim/v2/Users` (spec 000 §4.9): create, list, read, replace, patch, soft delete. */
export async function scimUserRoutes(app: FastifyInstance, options: { users: ScimUserStore }): Promise<void> {
  const { users } = options;
  const found = (user: ScimUserRecord | null, id: string): ScimUserRecord => {
    if (!user) throw notFound(id);
    return user;
  };

  app.post('/Users', { schema: scimRouteSchema('Provision a user', 201) }, async (request, reply) => {
    const user = await users.create(userAttributesOf(request.body));
    return reply.code(201).header('location', `${scimBase(request)}/Users/${user.id}`).send(userResource(user, scimBase(request)));
  });

  app.get('/Users', { schema: scimRouteSchema('List users; filter=userName eq "<email>", startIndex, count') }, async (request) => {
    const query = listQueryOf(request.query as Record<string, unknown>, userFilterColumns);
    const page = await users.list(query.filter, query.startIndex, query.count);
    return listResponse(page.records.map((user) => userResource(user, scimBase(request))), page.total, query.startIndex);
  });

  app.get<{ Params: IdParams }>('/Users/:id', { schema: scimRouteSchema('Read a user') }, async (request) => userResource(found(await users.get(request.params.id), request.params.id), scimBase(request)));

  app.put<{ Params: IdParams }>('/Users/:id', { schema: scimRouteSchema('Replace a user (active:false blocks their keys on the next request; a body without active keeps it)') }, async (request) => {
    const { id } = request.params;
    const attributes = userAttributesOf(request.body);
    // A replace that does not mention activation must not unblock a deactivated user.
    const mentionsActive = typeof request.body === 'object' && request.body !== null && Object.keys(request.body).some((key) => key.toLowerCase() === 'active');
    const next = mentionsActive ? attributes : { ...attributes, active: found(await users.get(id), id).active };
    return userResource(found(await users.replace(id, next), id), scimBase(request));
  });

  app.patch<{ Params: IdParams }>('/Users/:id', { schema: scimRouteSchema('Patch activation, display name, name, identity type or external id') }, async (request) => {
    const { id } = request.params;
    const current = found(await users.get(id), id);
    const next = applyUserPatch(current, request.body);
    return userResource(found(await users.replace(id, next), id), scimBase(request));
  });

  app.delete<{ Params: IdParams }>('/Users/:id', { schema: scimRouteSchema('Soft delete: the user is deactivated and answers 404 from now on', 204) }, async (request, reply) => {
    if (!(await users.delete(request.params.id))) throw notFound(request.params.id);
    return reply.code(204).send();
  });
}
