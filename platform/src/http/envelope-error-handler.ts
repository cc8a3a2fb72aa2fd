import type { FastifyInstance } from 'fastify';
import type { AppError } from '../errors.js';
import { normalizeRequestError, type RequestFailure, type RequestFailureOptions } from './request-failure.js';

export interface EnvelopeErrorHandlerOptions {
  /** How thrown values are read (store outages, values the store refused). */
  normalize: RequestFailureOptions;
  /** The service's coded error for a failure: the thrown error's own when it has one, else one of its catalog. */
  codeOf(failure: RequestFailure, bodyLimit: number): AppError;
  /** The service's answer for a path no route serves. */
  notFound(): AppError;
  /** Whether a 5xx is logged with its cause; default every one. An expected outage can be left to metrics. */
  logs?(failure: RequestFailure): boolean;
}

/**
 * One error handler for a service whose every non-2xx answer is `{error: {code, message}}` with a stable code (the
 * optimizer and the evidence service): the code comes from the service's catalog, never a stack.
 */
export function installEnvelopeErrorHandler(app: FastifyInstance, options: EnvelopeErrorHandlerOptions): void {
  app.setErrorHandler((thrown, request, reply) => {
    const failure = normalizeRequestError(thrown, options.normalize);
    const error = options.codeOf(failure, request.routeOptions.bodyLimit ?? 0);
    if (error.status >= 500 && (options.logs?.(failure) ?? true)) request.log.error({ err: thrown }, 'request failed');
    void reply
      .code(error.status)
      .headers(error.headers)
      .send({ error: { code: error.code, message: error.message } });
  });
  app.setNotFoundHandler((_request, reply) => {
    const error = options.notFound();
    void reply.code(error.status).send({ error: { code: error.code, message: error.message } });
  });
}
