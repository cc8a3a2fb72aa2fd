import type { FastifyInstance } from 'fastify';
import { AppError, installEnvelopeErrorHandler, type RequestFailure } from '@gw/platform';
import { evidenceErrors } from '../errors.js';

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
