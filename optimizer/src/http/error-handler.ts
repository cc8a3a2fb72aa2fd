import type { FastifyInstance } from 'fastify';
import { AppError, installEnvelopeErrorHandler, type RequestFailure } from '@gw/platform';
import { optimizerErrors } from '../errors.js';

/**
 * The optimizer's one error handler: every non-2xx answer is `{error: {code, message}}` with a stable code.
 * Failures that carry no code of their own (body limit, media type, validation) are rendered from the catalog.
 */
export function installErrorHandler(app: FastifyInstance, maxBodyBytes: number): void {
  installEnvelopeErrorHandler(app, {
    // A value the store refused (SQLSTATE 22/23: a NUL, an out-of-range number) is what the caller sent, never a 500.
    normalize: { refusedValues: true },
    codeOf: (failure) => fromFailure(failure, maxBodyBytes),
    notFound: () => optimizerErrors.notFound(),
  });
}

function fromFailure(failure: RequestFailure, maxBodyBytes: number): AppError {
  switch (failure.kind) {
    case 'coded':
      return failure.error;
    case 'body_too_large':
      return optimizerErrors.bodyTooLarge(maxBodyBytes);
    case 'unsupported_media_type':
      return optimizerErrors.unsupportedMediaType();
    case 'value_refused':
      return optimizerErrors.invalidRequest('the store refused a value of this request');
    case 'internal':
    case 'store_unavailable':
      return optimizerErrors.internal();
    default:
      // The catalog has no finer code for a request the framework refused (a failed schema, a bad URL).
      return new AppError({ status: failure.status, code: 'invalid_request', message: failure.message });
  }
}
