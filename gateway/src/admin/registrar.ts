import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { AdminOperation, LegacyMount } from './operation.js';
import { defaultScope, toFastifyPath } from './operation.js';
import type { Principal, PrincipalResolver } from './principal.js';
import { adminErrors, classifyAdminError, legacyErrorBody, v1ErrorBody } from './error-envelope.js';

export interface RegistrarDeps {
  principals: PrincipalResolver;
}

declare module 'fastify' {
  interface FastifyRequest {
    adminPrincipal: Principal | null;
    adminRequestId: string;
  }
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/** The scope an operation's v1 mount requires (explicit `null` = any authenticated principal). */
export function v1ScopeOf(operation: AdminOperation): string | null {
  if (!operation.v1) return null;
  return operation.v1.scope === undefined ? defaultScope(operation.method, operation.v1.path) : operation.v1.scope;
}

export function hasScope(principal: Principal, scope: string): boolean {
  return principal.scopes.has('*') || principal.scopes.has(scope);
}

/**
 * Mount every operation on both admin surfaces from one table (ARCHITECTURE.md "Admin plane"). Each surface is an
 * encapsulated plugin with its own auth hook and error envelope; handlers are shared, never duplicated.
 */
export async function registerOperations(app: FastifyInstance, operations: readonly AdminOperation[], deps: RegistrarDeps): Promise<void> {
  assertUnique(operations);
  app.decorateRequest('adminPrincipal', null);
  app.decorateRequest('adminRequestId', '');

  await app.register(async (legacy) => {
    legacy.setErrorHandler(async (error, _request, reply) => {
      const shape = classifyAdminError(error);
      return reply.code(shape.status).headers(shape.headers).send(legacyErrorBody(shape));
    });
    for (const operation of operations) for (const mount of operation.legacy ?? []) mountLegacy(legacy, operation, mount, deps);
  });

  await app.register(async (v1) => {
    v1.addHook('onRequest', async (request, reply) => {
      const incoming = request.headers['x-request-id'];
      request.adminRequestId = typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
      reply.header('x-request-id', request.adminRequestId);
    });
    v1.setErrorHandler(async (error, request, reply) => {
      const shape = classifyAdminError(error);
      return reply.code(shape.status).headers(shape.headers).send(v1ErrorBody(shape, request.adminRequestId));
    });
    for (const operation of operations) if (operation.v1) mountV1(v1, operation, deps);
  });
}

function routeSchema(operation: AdminOperation, extensions: Record<string, unknown>): FastifySchema {
  return {
    summary: operation.summary,
    ...(operation.body ? { body: operation.body } : {}),
    ...(operation.query ? { querystring: operation.query } : {}),
    ...(operation.params ? { params: operation.params } : {}),
    response: { [operation.successStatus ?? 200]: operation.response },
    ...extensions,
  };
}

async function authenticate(request: FastifyRequest, deps: RegistrarDeps): Promise<Principal> {
  const principal = await deps.principals.resolve(request);
  if (!principal) throw adminErrors.unauthenticated();
  request.adminPrincipal = principal;
  return principal;
}

async function run(operation: AdminOperation, request: FastifyRequest, reply: FastifyReply, principal: Principal, fixedQuery?: Record<string, string>) {
  const query = fixedQuery ? { ...(request.query as object), ...fixedQuery } : request.query;
  const result = await operation.handler({ body: request.body, query, params: request.params, principal, requestId: request.adminRequestId || request.traceId, request, reply });
  return reply.code(operation.successStatus ?? 200).send(result);
}

function mountLegacy(app: FastifyInstance, operation: AdminOperation, mount: LegacyMount, deps: RegistrarDeps): void {
  const successor = operation.successor ?? operation.v1?.path;
  const deprecated = operation.deprecatedLegacy !== false && successor !== undefined;
  app.route({
    method: operation.method,
    url: mount.path,
    schema: routeSchema(operation, { tags: ['admin (legacy)'], 'x-required-capability': operation.capability, ...(deprecated ? { deprecated: true } : {}) }),
    handler: async (request, reply) => {
      if (deprecated) reply.header('deprecation', 'true').header('link', `<${successor}>; rel="successor-version"`);
      const principal = await authenticate(request, deps);
      if (operation.capability && !principal.capabilities.has(operation.capability)) throw adminErrors.missingCapability(operation.capability);
      return run(operation, request, reply, principal, mount.fixedQuery);
    },
  });
}

function mountV1(app: FastifyInstance, operation: AdminOperation, deps: RegistrarDeps): void {
  const v1 = operation.v1 as { path: string };
  const scope = v1ScopeOf(operation);
  app.route({
    method: operation.method,
    url: toFastifyPath(v1.path),
    schema: routeSchema(operation, {
      tags: ['Management API v1'],
      operationId: operation.id,
      'x-required-scope': scope,
      'x-scope': operation.xScope,
      'x-legacy-operation': operation.legacy?.map((mount) => `${operation.method} ${mount.path}`).join(', ') ?? null,
      'x-gw-api-status': 'stable',
    }),
    handler: async (request, reply) => {
      const principal = await authenticate(request, deps);
      if (scope && !hasScope(principal, scope)) throw adminErrors.insufficientScope(scope);
      return run(operation, request, reply, principal);
    },
  });
}

function assertUnique(operations: readonly AdminOperation[]): void {
  const seen = new Set<string>();
  for (const operation of operations) {
    if (seen.has(operation.id)) throw new Error(`duplicate admin operation id ${operation.id}`);
    seen.add(operation.id);
  }
}
