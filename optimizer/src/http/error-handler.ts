import type { FastifyInstance } from 'fastify';
import { frameworkErrors, installEnvelopeErrorHandler, type AppError, type RequestFailure } from '@gw/platform';
import { optimizerError } from '../errors.js';

/**
 * The optimizer's one error handler: every non-2xx answer is `{error: {code, message}}` with a stable code.
 * Failures that carry no code of their own (body limit, media type, validation) are rendered from the catalog.
 */
export function installErrorHandler(app: FastifyInstance, maxBodyBytes: number): void {
  installEnvelopeErrorHandler(app, {
    // A value the store refused (SQLSTATE 22/23: a NUL, an out-of-range number) is what the caller sent, never a 500.
    normalize: { refusedValues: true },
    codeOf: (failure) => fromFailure(failure, maxBodyBytes),
    notFound: () => optimizerError('not_found'),
  });
}

function fromFailure(failure: RequestFailure, maxBodyBytes: number): AppError {
  switch (failure.kind) {
    case 'coded':
      return failure.error;
    case 'body_too_large':
      return optimizerError(
        'body_too_large',
        `request body exceeds ${maxBodyBytes} bytes (GW_OPTIMIZER_MAX_BODY_BYTES)`,
      );
    case 'unsupported_media_type':
      return optimizerError('unsupported_media_type');
    case 'value_refused':
      return optimizerError('invalid_request', 'the store refused a value of this request');
    case 'internal':
    case 'store_unavailable':
      return optimizerError('internal');
    default:
      // The catalog has no finer code for a request the framework refused (a failed schema, a bad URL).
      return frameworkErrors.refused(failure.status, failure.message);
  }
}
