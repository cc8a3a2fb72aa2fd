import type { FastifyInstance, FastifyRequest } from 'fastify';
import { userCoreSchema, userResourceSchema } from './protocol/attribute-schema.js';
import { project, projectionOf } from './protocol/attribute-projection.js';
import { notFound as scimNotFound } from './protocol/scim-error.js';
import { applyUserPatch } from './protocol/user-patch.js';
import { userAttributesOf } from './scim-bodies.js';
import { listResources } from './scim-list.js';
import { listQueryOf } from './scim-paging.js';
import { listResponse, userResource } from './scim-resources.js';
import { userPushdownColumns, type ScimUserRecord, type ScimUserStore } from './scim-users.store.js';
import { scimBase, scimRouteSchema, type IdParams } from './scim-route-support.js';

const notFound = (id: string) => scimNotFound(`User ${id} not found.`);
const queryOf = (request: FastifyRequest) => request.query as Record<string, unknown>;

/**
 * `/scim/v2/Users`: create, list, read, replace, patch, soft delete. Every answer that carries a user honours
 * `attributes` and `excludedAttributes` (protocol/attribute-projection.ts); lists take the full filter grammar.
 */
export async function scimUserRoutes(app: FastifyInstance, options: { users: ScimUserStore }): Promise<void> {
  const { users } = options;
  const found = (user: ScimUserRecord | null, id: string): ScimUserRecord => {
    if (!user) throw notFound(id);
    return user;
  };
  // The projection is read before the store is touched, so a malformed list is refused before any write.
  const answer = (request: FastifyRequest) => {
    const projection = projectionOf(queryOf(request), userResourceSchema);
    return (user: ScimUserRecord) => project(userResource(user, scimBase(request)), userResourceSchema, projection);
  };

  app.post('/Users', { schema: scimRouteSchema('Provision a user', 201) }, async (request, reply) => {
    const render = answer(request);
    const user = await users.create(userAttributesOf(request.body));
    return reply
      .code(201)
      .header('location', `${scimBase(request)}/Users/${user.id}`)
      .send(render(user));
  });

  app.get(
    '/Users',
    {
      schema: scimRouteSchema(
        'List users; filter (RFC 7644 grammar), startIndex, count, attributes, excludedAttributes',
      ),
    },
    async (request) => {
      const query = listQueryOf(queryOf(request), userResourceSchema);
      const base = scimBase(request);
      const page = await listResources(users, query, {
        columns: userPushdownColumns,
        coreSchema: userCoreSchema,
        render: (user) => userResource(user, base),
      });
      return listResponse(
        page.resources.map((resource) => project(resource, userResourceSchema, query.projection)),
        page.total,
        query.startIndex,
      );
    },
  );

  app.get<{ Params: IdParams }>(
    '/Users/:id',
    { schema: scimRouteSchema('Read a user; attributes, excludedAttributes') },
    async (request) => {
      const render = answer(request);
      return render(found(await users.get(request.params.id), request.params.id));
    },
  );

  app.put<{ Params: IdParams }>(
    '/Users/:id',
    {
      schema: scimRouteSchema(
        'Replace a user (active:false blocks their keys on the next request; a body without active keeps it)',
      ),
    },
    async (request) => {
      const { id } = request.params;
      const render = answer(request);
      const attributes = userAttributesOf(request.body);
      // A replace that does not mention activation must not unblock a deactivated user.
      const mentionsActive =
        typeof request.body === 'object' &&
        request.body !== null &&
        Object.keys(request.body).some((key) => key.toLowerCase() === 'active');
      const next = mentionsActive ? attributes : { ...attributes, active: found(await users.get(id), id).active };
      return render(found(await users.replace(id, next), id));
    },
  );

  app.patch<{ Params: IdParams }>(
    '/Users/:id',
    { schema: scimRouteSchema('Patch activation, display name, name, identity type, external id or e-mail addresses') },
    async (request) => {
      const { id } = request.params;
      const render = answer(request);
      const current = found(await users.get(id), id);
      const next = applyUserPatch(current, request.body);
      return render(found(await users.replace(id, next), id));
    },
  );

  app.delete<{ Params: IdParams }>(
    '/Users/:id',
    { schema: scimRouteSchema('Soft delete: the user is deactivated and answers 404 from now on', 204) },
    async (request, reply) => {
      if (!(await users.delete(request.params.id))) throw notFound(request.params.id);
      return reply.code(204).send();
    },
  );
}
