import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Capability } from './capabilities.js';
import type { Principal } from './principal.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A legacy `/admin/...` mount of an operation; `fixed` pins handler inputs (e.g. `type: service`). */
export interface LegacyMount {
  path: string;
  fixedQuery?: Record<string, string>;
}

export interface OperationContext<Body, Query, Params> {
  body: Body;
  query: Query;
  params: Params;
  principal: Principal;
  requestId: string;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * One admin operation, declared once (ARCHITECTURE.md "Admin plane"): the registrar mounts it on the legacy
 * `/admin/...` surface (capability gate, Deprecation + Link headers) and on `/admin/v1/...` (scope gate, rate limit,
 * v1 error envelope), audits its writes, and writes the OpenAPI extensions from these fields. See README.md here.
 */
export interface AdminOperation<
  BodySchema extends z.ZodType = z.ZodType,
  QuerySchema extends z.ZodType = z.ZodType,
  ParamsSchema extends z.ZodType = z.ZodType,
> {
  id: string;
  summary: string;
  /** Longer text for the OpenAPI document and the API reference: headers, error codes, limits. */
  description?: string;
  method: HttpMethod;
  /** Legacy capability; `null` = authenticated but ungated. */
  capability: Capability | null;
  legacy?: readonly LegacyMount[];
  /** v1 path with `{param}` placeholders; scope defaults to the v1 scope rule for the method and path. */
  v1?: { path: string; scope?: string | null };
  /** `tenant` or `deployment` (fleet mode). */
  xScope: 'tenant' | 'deployment';
  /** Successor named in the legacy `Link` header when the v1 twin is a different operation. */
  successor?: string;
  /** Legacy data routes are deprecated in favour of v1; console routes are not. */
  deprecatedLegacy?: boolean;
  successStatus?: number;
  /** Audit this operation (default: every write, i.e. not GET and not `POST …/query`); true for sensitive reads. */
  audit?: boolean;
  /** Audit category; default the v1 resource (first segment after `/admin/v1/`) or the legacy path's first segment. */
  auditCategory?: string;
  /** Audit target and subject of a successful call when the defaults (path params, the created record's id and user) would be wrong. */
  auditSubjects?(input: AuditSubjectInput): { target: string | null; subject: string | null };
  /** Bodies that are bytes, not JSON; published in the OpenAPI document as binary. */
  media?: OperationMedia;
  body?: BodySchema;
  query?: QuerySchema;
  params?: ParamsSchema;
  response: z.ZodType;
  handler(
    context: OperationContext<z.infer<BodySchema>, z.infer<QuerySchema>, z.infer<ParamsSchema>>,
  ): Promise<unknown>;
}

/**
 * `request`: the media types of a body the handler streams itself from `request.raw` (the registrar leaves every
 * body of the route unparsed, so nothing buffers it). `response`: the media types of a success answer that is bytes
 * (a Buffer or a stream); `statuses` documents further success statuses a handler may set with `reply.code` (206).
 */
export interface OperationMedia {
  request?: readonly string[];
  response?: readonly string[];
  statuses?: Readonly<Record<number, string>>;
}

export interface AuditSubjectInput {
  params: unknown;
  result: unknown;
}

/** Typed helper so each operation infers its handler inputs from its schemas. */
export function defineOperation<
  BodySchema extends z.ZodType = z.ZodUndefined,
  QuerySchema extends z.ZodType = z.ZodUndefined,
  ParamsSchema extends z.ZodType = z.ZodUndefined,
>(operation: AdminOperation<BodySchema, QuerySchema, ParamsSchema>): AdminOperation {
  return operation;
}

/** V1 scope rule: `<resource>:<read|write>` from the first segment; `POST …/query` is a read. */
export function defaultScope(method: HttpMethod, v1Path: string): string {
  const resource = v1Path.replace(/^\/admin\/v1\//, '').split('/')[0] ?? '';
  const isRead = method === 'GET' || (method === 'POST' && v1Path.endsWith('/query'));
  return `${resource}:${isRead ? 'read' : 'write'}`;
}

/** Whether a call of the operation writes. */
export function isWriteOperation(operation: Pick<AdminOperation, 'method' | 'v1'>): boolean {
  if (operation.method === 'GET') return false;
  return !(operation.method === 'POST' && operation.v1?.path.endsWith('/query') === true);
}

/** `/admin/v1/keys/{id}` → `/admin/v1/keys/:id` for fastify. */
export function toFastifyPath(openApiPath: string): string {
  return openApiPath.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}
