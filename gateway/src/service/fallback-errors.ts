import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { openAiErrorType } from '../inference/error-envelope.js';
import { adminRequestIdOf, classifyAdminError, legacyErrorBody, v1ErrorBody } from '../admin/error-envelope.js';
import { gatewayError } from '../errors.js';

/**
 * Answers for requests no surface's own handler saw: an unmatched path or method, or a body that failed before a
 * route took it. Each gets its surface's envelope: `/admin/v1/*` the Management API one with
 * `request_id` and `x-request-id`, legacy `/admin/*` its `{error: {code, message}}`, anything else the inference
 * shape. `/v1/*` never lands here: the catch-all proxies it.
 */
export function installFallbackErrors(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) =>
    answer(request, reply, gatewayError('not_found', `No route ${request.method} ${pathOf(request)}.`)),
  );
  app.setErrorHandler((error, request, reply) => answer(request, reply, error));
}

function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode (a bad percent escape) or a path parameter over its
 * length limit fails before any route or hook runs; it gets its surface's envelope too.
 */
export function answerFrameworkError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  void answer(request, reply, error);
}

function answer(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const shape = classifyAdminError(error);
  if (shape.status >= 500) request.log.error({ err: error }, 'unhandled error');
  reply.code(shape.status).headers(shape.headers);
  const path = pathOf(request);
  if (path === '/admin/v1' || path.startsWith('/admin/v1/')) {
    const requestId = adminRequestIdOf(request);
    return reply.header('x-request-id', requestId).send(v1ErrorBody(shape, requestId));
  }
  if (path.startsWith('/admin/')) return reply.send(legacyErrorBody(shape));
  return reply.send({ error: { message: shape.message, type: openAiErrorType(shape.status), code: shape.code } });
}
