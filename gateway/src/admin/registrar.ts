import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import { markConnectionAuthenticated, type RateDecision } from '@gw/platform';
import type { AuditEntryInput } from './audit/audit.store.js';
import { auditEntryFor, isAudited } from './audit-entry.js';
import { adminErrors, adminRequestIdOf, classifyAdminError, legacyErrorBody, v1ErrorBody } from './error-envelope.js';
import type { AdminOperation, LegacyMount } from './operation.js';
import { defaultScope, toFastifyPath } from './operation.js';
import { hasScope, type Principal, type PrincipalResolver } from './principal.js';

export { hasScope } from './principal.js';

export interface RegistrarDeps {
  principals: PrincipalResolver;
  /** The `/admin/v1/*` rate per principal; `null` = not decided (limiter down: fail open). */
  rateLimit?: (actor: string) => Promise<RateDecision | null>;
  /** Records one content-free audit entry; must not throw. */
  audit?: (entry: AuditEntryInput) => Promise<void>;
  /** `GW_MULTI_TENANT=true`: tenant-bound principals reach tenant resources only. */
  fleetMode?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    adminPrincipal: Principal | null;
    adminRequestId: string;
    adminOperation: AdminOperation | null;
  }
  interface FastifyInstance {
    /** The mounted operation table (the table-walking test and docs read it). */
    adminOperations: readonly AdminOperation[];
  }
}

/** The scope an operation's v1 mount requires (explicit `null` = any authenticated principal). */
export function v1ScopeOf(operation: AdminOperation): string | null {
  if (!operation.v1) return null;
  return operation.v1.scope === undefined ? defaultScope(operation.method, operation.v1.path) : operation.v1.scope;
}

/**
 * Mount every operation on both admin surfaces from one table (ARCHITECTURE.md "Admin plane"). Each surface is an
 * encapsulated plugin with its own auth hook and error envelope; handlers are shared, never duplicated. Gates run in
 * `onRequest`, before the body is parsed: an unauthenticated caller learns nothing about bodies. Every write is
 * audited here, so no handler audits itself.
 */
export async function registerOperations(
  app: FastifyInstance,
  operations: readonly AdminOperation[],
  deps: RegistrarDeps,
): Promise<void> {
  assertUnique(operations);
  app.decorate('adminOperations', operations);
  app.decorateRequest('adminPrincipal', null);
  app.decorateRequest('adminRequestId', '');
  app.decorateRequest('adminOperation', null);

  await app.register(async (legacy) => {
    legacy.setErrorHandler(async (error, request, reply) => {
      const shape = classifyAdminError(error);
      await auditFailure(request, shape.status, deps);
      return reply.code(shape.status).headers(shape.headers).send(legacyErrorBody(shape));
    });
    for (const operation of operations)
      for (const mount of operation.legacy ?? []) mountLegacy(legacy, operation, mount, deps);
  });

  await app.register(async (v1) => {
    v1.addHook('onRequest', async (request, reply) => {
      request.adminRequestId = adminRequestIdOf(request);
      reply.header('x-request-id', request.adminRequestId);
    });
    v1.setErrorHandler(async (error, request, reply) => {
      const shape = classifyAdminError(error);
      await auditFailure(request, shape.status, deps);
      return reply.code(shape.status).headers(shape.headers).send(v1ErrorBody(shape, request.adminRequestId));
    });
    for (const operation of operations) if (operation.v1) mountV1(v1, operation, deps);
  });
}

const binary = { type: 'string', format: 'binary' } as const;

/** Success responses: the JSON schema, or for a bytes answer each media type as binary, plus further statuses. */
function responses(operation: AdminOperation): Record<number, unknown> {
  const success = operation.successStatus ?? 200;
  const produced = operation.media?.response;
  if (!produced) return { [success]: operation.response };
  const content = Object.fromEntries(produced.map((type) => [type, { schema: binary }]));
  const documented: Record<number, unknown> = {
    [success]: { description: operation.response.description ?? 'OK', content },
  };
  for (const [status, description] of Object.entries(operation.media?.statuses ?? {}))
    // A 304 has no body: `type: null` is how the OpenAPI generator writes a response without content.
    documented[Number(status)] = Number(status) === 304 ? { type: 'null', description } : { description, content };
  return documented;
}

function routeSchema(operation: AdminOperation, extensions: Record<string, unknown>): FastifySchema {
  const streamed = operation.media?.request;
  return {
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    security: [{ adminBearer: [] }, { consoleSession: [] }],
    ...(operation.body ? { body: operation.body } : {}),
    ...(streamed ? { body: binary, consumes: [...streamed] } : {}),
    ...(operation.query ? { querystring: operation.query } : {}),
    ...(operation.params ? { params: operation.params } : {}),
    response: responses(operation),
    ...extensions,
  };
}

/** Mounts a route; one whose body the handler streams gets a scope of its own that leaves every body unparsed. */
function addRoute(app: FastifyInstance, operation: AdminOperation, route: RouteOptions): void {
  if (!operation.media?.request) {
    app.route(route);
    return;
  }
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    scope.route(route);
  });
}

async function authenticate(
  request: FastifyRequest,
  operation: AdminOperation,
  deps: RegistrarDeps,
): Promise<Principal> {
  request.adminOperation = operation;
  const principal = await deps.principals.resolve(request);
  if (!principal) throw adminErrors.unauthenticated();
  request.adminPrincipal = principal;
  markConnectionAuthenticated(request.raw.socket);
  return principal;
}

// In fleet mode a deployment resource answers 403 deployment_scope_required to tenant-bound principals.
function assertDeploymentReach(operation: AdminOperation, principal: Principal, deps: RegistrarDeps): void {
  if (deps.fleetMode && operation.xScope === 'deployment' && principal.tenant !== null)
    throw adminErrors.deploymentScopeRequired();
}

const requestIdOf = (request: FastifyRequest) => request.adminRequestId || request.traceId;

async function run(
  operation: AdminOperation,
  request: FastifyRequest,
  reply: FastifyReply,
  principal: Principal,
  fixedQuery?: Record<string, string>,
) {
  const query = fixedQuery ? { ...(request.query as object), ...fixedQuery } : request.query;
  const result = await operation.handler({
    body: request.body,
    query,
    params: request.params,
    principal,
    requestId: requestIdOf(request),
    request,
    reply,
  });
  // A handler may answer another success status itself (206 partial content, 304 not modified).
  const status = reply.statusCode === 200 ? (operation.successStatus ?? 200) : reply.statusCode;
  return { result, status };
}

async function runAndAudit(
  operation: AdminOperation,
  request: FastifyRequest,
  reply: FastifyReply,
  deps: RegistrarDeps,
  fixedQuery?: Record<string, string>,
) {
  const principal = request.adminPrincipal as Principal;
  const { result, status } = await run(operation, request, reply, principal, fixedQuery);
  if (deps.audit && isAudited(operation))
    await deps.audit(
      auditEntryFor({ operation, principal, params: request.params, result, requestId: requestIdOf(request), status }),
    );
  return reply.code(status).send(result);
}

/** A refused or failed write by a known principal is audited too (outcome failure, with the status it got). */
async function auditFailure(request: FastifyRequest, status: number, deps: RegistrarDeps): Promise<void> {
  const operation = request.adminOperation;
  const principal = request.adminPrincipal;
  if (!deps.audit || !operation || !principal || !isAudited(operation) || status === 429) return;
  await deps.audit(
    auditEntryFor({ operation, principal, params: request.params, requestId: requestIdOf(request), status }),
  );
}

function mountLegacy(app: FastifyInstance, operation: AdminOperation, mount: LegacyMount, deps: RegistrarDeps): void {
  const successor = operation.successor ?? operation.v1?.path;
  const deprecated = operation.deprecatedLegacy !== false && successor !== undefined;
  addRoute(app, operation, {
    method: operation.method,
    url: mount.path,
    schema: routeSchema(operation, {
      tags: ['admin (legacy)'],
      'x-required-capability': operation.capability,
      ...(deprecated ? { deprecated: true } : {}),
    }),
    onRequest: async (request, reply) => {
      // Other rule 5: Deprecation and the successor Link on every answer, errors included.
      if (deprecated) reply.header('deprecation', 'true').header('link', `<${successor}>; rel="successor-version"`);
      const principal = await authenticate(request, operation, deps);
      if (!principal.legacyAccess) throw adminErrors.scopeKeyOnLegacy();
      if (operation.capability && !principal.capabilities.has(operation.capability))
        throw adminErrors.missingCapability(operation.capability);
      assertDeploymentReach(operation, principal, deps);
    },
    handler: async (request, reply) => runAndAudit(operation, request, reply, deps, mount.fixedQuery),
  });
}

function mountV1(app: FastifyInstance, operation: AdminOperation, deps: RegistrarDeps): void {
  const v1 = operation.v1 as { path: string };
  const scope = v1ScopeOf(operation);
  addRoute(app, operation, {
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
    onRequest: async (request) => {
      const principal = await authenticate(request, operation, deps);
      const decision = deps.rateLimit ? await deps.rateLimit(principal.actor) : null;
      if (decision && !decision.allowed)
        throw adminErrors.rateLimited(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
      if (scope && !hasScope(principal, scope)) throw adminErrors.insufficientScope(scope);
      assertDeploymentReach(operation, principal, deps);
    },
    handler: async (request, reply) => runAndAudit(operation, request, reply, deps),
  });
}

function assertUnique(operations: readonly AdminOperation[]): void {
  const seen = new Set<string>();
  for (const operation of operations) {
    if (seen.has(operation.id)) throw new Error(`duplicate admin operation id ${operation.id}`);
    seen.add(operation.id);
  }
}
