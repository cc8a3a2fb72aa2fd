import { isPlainObject } from './parse-wire.js';
import type { BackendFamily } from './translator.js';

/** Longest slice of an untyped upstream error body (an HTML error page, say) carried into the message. */
const maxRawMessageLength = 500;

/** A message for an upstream error body that carried none in the expected place. */
export function fallbackErrorMessage(body: unknown, status: number): string {
  if (typeof body === 'string' && body.trim() !== '') return body.trim().slice(0, maxRawMessageLength);
  if (isPlainObject(body) && typeof body.message === 'string') return body.message;
  return `The provider answered HTTP ${status}.`;
}

/**
 * Error `type` for an upstream error whose body carried none (an HTML 502 page, an empty body), in the
 * vocabulary of the envelope the client reads. A typed upstream error keeps its type unchanged
 *.
 */
export function errorTypeForStatus(status: number, envelope: BackendFamily): string {
  if (envelope === 'anthropic') return anthropicErrorType(status);
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function anthropicErrorType(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}
