import type { FastifyInstance } from 'fastify';
import { AppError, normalizeRequestError, type RequestFailure } from '@gw/platform';
import { evidenceErrors } from '../errors.js';

/** One error handler for the whole service: `{error: {code, message}}` with a stable code, never a stack. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((thrown, request, reply) => {
    const error = fromFailure(normalizeRequestError(thrown, { refusedValues: true, storeOutages: true, service: 'evidence service' }), request.routeOptions.bodyLimit ?? 0);
    if (error.status >= 500 && error.code !== 'store_unavailable') request.log.error({ err: thrown }, 'request failed');
    void reply
      .code(error.status)
      .headers(error.headers)
      .send({ error: { code: error.code, message: error.message } });
  });
  app.setNotFoundHandler((_request, reply) => {
    const error = evidenceErrors.notFound('The route');
    void reply.code(error.status).send({ error: { code: error.code, message: error.message } });
  });
}

function fromFailure(failure: RequestFailure, bodyLimit: number): AppError {
  switch (failure.kind) {
    case 'coded':
      return failure.error;
    case 'body_too_large':
      return evidenceErrors.bodyTooLarge(bodyLimit);
    case 'unsupported_media_type':
      return evidenceErrors.unsupportedMediaType();
    case 'value_refused':
      return evidenceErrors.invalidRequest('the store refused a value of this request');
    case 'store_unavailable':
      return evidenceErrors.unavailable();
    case 'internal':
      return evidenceErrors.internal();
    default:
      return new AppError({ status: failure.status, code: 'invalid_request', message: failure.message });
  }
}
