import type { FastifyInstance } from 'fastify';
import { notFound as scimNotFound } from './protocol/scim-error.js';
import { applyGroupPatch } from './protocol/group-patch.js';
import { groupWriteOf } from './scim-bodies.js';
import { groupFilterColumns, type ScimGroupRecord, type ScimGroupStore } from './scim-groups.store.js';
import { excludesMembers, listQueryOf } from './scim-paging.js';
import { groupResource, listResponse } from './scim-resources.js';
import { scimBase, scimRouteSchema, type IdParams } from './scim-route-support.js';

const notFound = (id: string) => scimNotFound(`Group ${id} not found.`);

/** `/scim/v2/Groups` (spec 000 §4.9): membership recomputes each member's team and administrator mapping. */
export async function scimGroupRoutes(app: FastifyInstance, options: { groups: ScimGroupStore }): Promise<void> {
  const { groups } = options;
  const found = (group: ScimGroupRecord | null, id: string): ScimGroupRecord => {
    if (!group) throw notFound(id);
    return group;
  };

  app.post('/Groups', { schema: scimRouteSchema('Create a group (members by user id, or by address: a missing one is provisioned)', 201) }, async (request, reply) => {
    const group = await groups.create(groupWriteOf(request.body));
    return reply.code(201).header('location', `${scimBase(request)}/Groups/${group.id}`).send(groupResource(group, scimBase(request), { members: true }));
  });

  app.get('/Groups', { schema: scimRouteSchema('List groups; filter=displayName eq "<name>", startIndex, count, excludedAttributes=members') }, async (request) => {
    const query = listQueryOf(request.query as Record<string, unknown>, groupFilterColumns);
    const page = await groups.list(query.filter, query.startIndex, query.count);
    return listResponse(page.records.map((group) => groupResource(group, scimBase(request), { members: !query.withoutMembers })), page.total, query.startIndex);
  });

  app.get<{ Params: IdParams }>('/Groups/:id', { schema: scimRouteSchema('Read a group') }, async (request) =>
    groupResource(found(await groups.get(request.params.id), request.params.id), scimBase(request), { members: !excludesMembers(request.query as Record<string, unknown>) }),
  );

  app.put<{ Params: IdParams }>('/Groups/:id', { schema: scimRouteSchema('Replace a group (recomputes team and administrator mappings)') }, async (request) => {
    const group = await groups.replace(request.params.id, groupWriteOf(request.body));
    return groupResource(found(group, request.params.id), scimBase(request), { members: true });
  });

  app.patch<{ Params: IdParams }>('/Groups/:id', { schema: scimRouteSchema('Add, remove or replace members; rename') }, async (request) => {
    const { id } = request.params;
    const group = await groups.update(id, (current) => {
      const next = applyGroupPatch({ displayName: current.displayName, externalId: current.externalId, memberIds: current.members.map((member) => member.id) }, request.body);
      return { displayName: next.displayName, externalId: next.externalId, members: next.memberIds.map((value) => ({ value })) };
    });
    return groupResource(found(group, id), scimBase(request), { members: true });
  });

  app.delete<{ Params: IdParams }>('/Groups/:id', { schema: scimRouteSchema('Delete a group (recomputes its members’ mappings)', 204) }, async (request, reply) => {
    if (!(await groups.delete(request.params.id))) throw notFound(request.params.id);
    return reply.code(204).send();
  });
}
