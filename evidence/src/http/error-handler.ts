import type { FastifyInstance } from 'fastify';
import { frameworkErrors, installEnvelopeErrorHandler, type AppError, type RequestFailure } from '@gw/platform';
import { evidenceError, evidenceErrors } from '../errors.js';

/** One error handler for the whole service: `{error: {code, message}}` with a stable code, never a stack. */
export function installErrorHandler(app: FastifyInstance): void {
  installEnvelopeErrorHandler(app, {
    normalize: { refusedValues: true, storeOutages: true, service: 'evidence service' },
    codeOf: fromFailure,
    notFound: () => evidenceErrors.notFound('The route'),
    // A store outage answers 503 and shows on /readyz; logging each refused request would only repeat it.
    logs: (failure) => failure.kind !== 'store_unavailable',
  });
}

function fromFailure(failure: RequestFailure, bodyLimit: number): AppError {
  switch (failure.kind) {
    case 'coded':
      return failure.error;
    case 'body_too_large':
      return evidenceErrors.bodyTooLarge(bodyLimit);
    case 'unsupported_media_type':
      return evidenceError('unsupported_media_type');
    case 'value_refused':
      return evidenceError('invalid_request', 'the store refused a value of this request');
    case 'store_unavailable':
      return evidenceError('store_unavailable');
    case 'internal':
      return evidenceError('internal_error');
    default:
      return frameworkErrors.refused(failure.status, failure.message);
  }
}
