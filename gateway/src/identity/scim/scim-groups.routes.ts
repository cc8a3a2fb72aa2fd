import type { FastifyInstance, FastifyRequest } from 'fastify';
import { groupCoreSchema, groupResourceSchema } from './protocol/attribute-schema.js';
import { project, projectionOf } from './protocol/attribute-projection.js';
import { notFound as scimNotFound } from './protocol/scim-error.js';
import { applyGroupPatch } from './protocol/group-patch.js';
import { groupWriteOf } from './scim-bodies.js';
import { groupPushdownColumns, type ScimGroupRecord, type ScimGroupStore } from './scim-groups.store.js';
import { listResources } from './scim-list.js';
import { listQueryOf } from './scim-paging.js';
import { groupResource, listResponse } from './scim-resources.js';
import { scimBase, scimRouteSchema, type IdParams } from './scim-route-support.js';

const notFound = (id: string) => scimNotFound(`Group ${id} not found.`);
const queryOf = (request: FastifyRequest) => request.query as Record<string, unknown>;

/**
 * `/scim/v2/Groups`: membership recomputes each member's team and administrator mapping. Every answer that carries a
 * group honours `attributes` and `excludedAttributes` (Entra ID reads groups with `excludedAttributes=members`).
 */
export async function scimGroupRoutes(app: FastifyInstance, options: { groups: ScimGroupStore }): Promise<void> {
  const { groups } = options;
  const found = (group: ScimGroupRecord | null, id: string): ScimGroupRecord => {
    if (!group) throw notFound(id);
    return group;
  };
  // The projection is read before the store is touched, so a malformed list is refused before any write.
  const answer = (request: FastifyRequest) => {
    const projection = projectionOf(queryOf(request), groupResourceSchema);
    return (group: ScimGroupRecord) =>
      project(groupResource(group, scimBase(request)), groupResourceSchema, projection);
  };

  app.post(
    '/Groups',
    {
      schema: scimRouteSchema('Create a group (members by user id, or by address: a missing one is provisioned)', 201),
    },
    async (request, reply) => {
      const render = answer(request);
      const group = await groups.create(groupWriteOf(request.body));
      return reply
        .code(201)
        .header('location', `${scimBase(request)}/Groups/${group.id}`)
        .send(render(group));
    },
  );

  app.get(
    '/Groups',
    {
      schema: scimRouteSchema(
        'List groups; filter (RFC 7644 grammar), startIndex, count, attributes, excludedAttributes',
      ),
    },
    async (request) => {
      const query = listQueryOf(queryOf(request), groupResourceSchema);
      const base = scimBase(request);
      const page = await listResources(groups, query, {
        columns: groupPushdownColumns,
        coreSchema: groupCoreSchema,
        render: (group) => groupResource(group, base),
      });
      return listResponse(
        page.resources.map((resource) => project(resource, groupResourceSchema, query.projection)),
        page.total,
        query.startIndex,
      );
    },
  );

  app.get<{ Params: IdParams }>(
    '/Groups/:id',
    { schema: scimRouteSchema('Read a group; attributes, excludedAttributes') },
    async (request) => {
      const render = answer(request);
      return render(found(await groups.get(request.params.id), request.params.id));
    },
  );

  app.put<{ Params: IdParams }>(
    '/Groups/:id',
    { schema: scimRouteSchema('Replace a group (recomputes team and administrator mappings)') },
    async (request) => {
      const render = answer(request);
      return render(found(await groups.replace(request.params.id, groupWriteOf(request.body)), request.params.id));
    },
  );

  app.patch<{ Params: IdParams }>(
    '/Groups/:id',
    { schema: scimRouteSchema('Add, remove or replace members; rename') },
    async (request) => {
      const { id } = request.params;
      const render = answer(request);
      const group = await groups.update(id, (current) => {
        const next = applyGroupPatch(
          {
            displayName: current.displayName,
            externalId: current.externalId,
            memberIds: current.members.map((member) => member.id),
          },
          request.body,
        );
        return {
          displayName: next.displayName,
          externalId: next.externalId,
          members: next.memberIds.map((value) => ({ value })),
        };
      });
      return render(found(group, id));
    },
  );

  app.delete<{ Params: IdParams }>(
    '/Groups/:id',
    { schema: scimRouteSchema('Delete a group (recomputes its members’ mappings)', 204) },
    async (request, reply) => {
      if (!(await groups.delete(request.params.id))) throw notFound(request.params.id);
      return reply.code(204).send();
    },
  );
}
