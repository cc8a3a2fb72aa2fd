import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, asRequestError, isAppError, isDataRejection } from '@gw/platform';
import { optimizerErrors } from '../errors.js';

/**
 * The optimizer's one error handler: every non-2xx answer is `{error: {code, message}}` with a stable code.
 * Fastify's own errors (body limit, media type, validation) are mapped onto the catalog.
 */
export function installErrorHandler(app: FastifyInstance, maxBodyBytes: number): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const thrown = asRequestError(error);
    // A value the store refused (SQLSTATE 22/23: a NUL, an out-of-range number) is what the caller sent, never a 500.
    const refused = isDataRejection(error) ? optimizerErrors.invalidRequest('the store refused a value of this request') : null;
    const mapped = refused ?? (isAppError(thrown) ? thrown : fromFastifyError(error, maxBodyBytes));
    if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
    void reply
      .code(mapped.status)
      .headers(mapped.headers)
      .send({ error: { code: mapped.code, message: mapped.message } });
  });
  app.setNotFoundHandler((_request, reply) => {
    const error = optimizerErrors.notFound();
    void reply.code(error.status).send({ error: { code: error.code, message: error.message } });
  });
}

function fromFastifyError(error: FastifyError, maxBodyBytes: number): AppError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return optimizerErrors.bodyTooLarge(maxBodyBytes);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return optimizerErrors.unsupportedMediaType();
    case 'FST_ERR_VALIDATION':
      return optimizerErrors.invalidRequest(error.message);
    default:
      break;
  }
  const clientError = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500;
  return clientError ? new AppError({ status: error.statusCode as number, code: 'invalid_request', message: error.message }) : optimizerErrors.internal();
}
