import { isDataRejection, isStoreUnavailable } from '../db/store-errors.js';
import { frameworkErrors } from '../error-catalog.js';
import { AppError } from '../errors.js';
import { RequestValidationError } from './zod-schemas.js';

/**
 * What a failed request was, decided here once for every surface from whatever was thrown: a coded error, fastify's
 * own errors (validation, body parser, body limit, media type, router), a store failure, a stack overflow. Each
 * surface's error handler renders the failure in its own envelope and vocabulary and never inspects raw errors.
 */
export type RequestFailureKind =
  /** An `AppError`: its own status, code and headers. */
  | 'coded'
  /** A schema rejected the request (the zod compiler's `RequestValidationError` or fastify's own validation). */
  | 'invalid_request'
  /** Fastify's JSON parser could not read the body (or it was empty). */
  | 'invalid_json'
  | 'body_too_large'
  | 'unsupported_media_type'
  /** Any other 4xx fastify raised: a URL the router cannot decode, a path parameter over its limit. */
  | 'client_error'
  /** The store could not serve (only for surfaces that opt in with `storeOutages`); the caller may retry. */
  | 'store_unavailable'
  /** The store refused a value the caller sent (only for surfaces that opt in with `refusedValues`). */
  | 'value_refused'
  /** Anything else: a fault of the service, which the surface logs. */
  | 'internal';

interface FailureFields {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type RequestFailure =
  | (FailureFields & { readonly kind: 'coded'; readonly error: AppError })
  /** `error` is what was thrown, for the log. */
  | (FailureFields & { readonly kind: Exclude<RequestFailureKind, 'coded'>; readonly error: unknown });

export interface RequestFailureOptions {
  /** Names the service in the messages of its own faults: "The gateway failed to handle the request." */
  readonly service?: string;
  /**
   * The surface's handlers call the store and let its errors through: an outage answers 503, which the caller may
   * retry. Only for surfaces whose other network errors are bugs, since a reset connection reads as an outage.
   */
  readonly storeOutages?: boolean;
  /** A value the store refused (SQLSTATE class 22 or 23: a NUL, an out-of-range number) is the caller's: 400. */
  readonly refusedValues?: boolean;
}

/** The subset of fastify's error shape the rules read; raw errors are duck-typed. */
interface FrameworkError {
  statusCode?: unknown;
  code?: unknown;
  validation?: unknown;
  message?: unknown;
}

const jsonParserCodes = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

export function normalizeRequestError(thrown: unknown, options: RequestFailureOptions = {}): RequestFailure {
  const service = options.service ?? 'server';
  const error = asCodedError(thrown);
  if (error instanceof AppError)
    return {
      kind: 'coded',
      error,
      status: error.status,
      code: error.code,
      message: error.message,
      headers: { ...error.headers },
    };
  if (error instanceof RequestValidationError)
    return failure('invalid_request', thrown, 400, 'invalid_request', error.message);
  const framework = (typeof error === 'object' && error !== null ? error : {}) as FrameworkError;
  const message = typeof framework.message === 'string' ? framework.message : '';
  if (framework.validation || framework.code === 'FST_ERR_VALIDATION')
    return failure('invalid_request', thrown, 400, 'invalid_request', message);
  const status = framework.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (typeof framework.code === 'string' && jsonParserCodes.has(framework.code))
      return failure('invalid_json', thrown, status, 'invalid_json', 'The request body is not valid JSON.');
    if (status === 413) return failure('body_too_large', thrown, status, 'body_too_large', message);
    if (status === 415) return failure('unsupported_media_type', thrown, status, 'unsupported_media_type', message);
    return failure('client_error', thrown, status, 'invalid_request', message);
  }
  if (options.storeOutages && isStoreUnavailable(error)) {
    return {
      ...failure(
        'store_unavailable',
        thrown,
        503,
        'unavailable',
        `The ${service} store is unavailable; retry shortly.`,
      ),
      headers: { 'retry-after': '1' },
    };
  }
  if (options.refusedValues && isDataRejection(error)) {
    return failure(
      'value_refused',
      thrown,
      400,
      'invalid_request',
      'The store refused a value of this request (a NUL character, or a value out of range).',
    );
  }
  return failure('internal', thrown, 500, 'internal_error', `The ${service} failed to handle the request.`);
}

function failure(
  kind: Exclude<RequestFailureKind, 'coded'>,
  error: unknown,
  status: number,
  code: string,
  message: string,
): RequestFailure {
  return { kind, error, status, code, message, headers: {} };
}

/**
 * Recursive walks over a request (translators, `JSON.stringify` of a rewritten body, token estimates) run out of
 * stack on JSON nested a few thousand levels deep, which `JSON.parse` accepts. That is the caller's input, not a
 * server fault: the overflow becomes a 400 so no surface answers it with a 500. Checking the depth of every body up
 * front would cost a walk of every request to catch what almost none send.
 */
function asCodedError(error: unknown): unknown {
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return frameworkErrors.nestedTooDeeply(error);
  }
  return error;
}
