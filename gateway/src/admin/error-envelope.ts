import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyRequest } from 'fastify';
import { AppError, RequestValidationError, asRequestError, isDataRejection, isStoreUnavailable } from '@gw/platform';

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/** spec 000 §7: a caller-sent `x-request-id` is echoed when it is a sane token; otherwise one is minted. */
export function adminRequestIdOf(request: FastifyRequest): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
}

export interface AdminErrorShape {
  status: number;
  code: string;
  message: string;
  headers: Record<string, string>;
  requiredScope?: string;
}

// spec 000 §7 Management API v1 codes, by status, for errors that carry no more specific legacy reason code.
const v1CodeByStatus: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthenticated',
  403: 'insufficient_scope',
  404: 'not_found',
  409: 'conflict',
  413: 'invalid_request',
  415: 'invalid_request',
  429: 'rate_limited',
  502: 'unavailable',
  503: 'unavailable',
};

export function classifyAdminError(thrown: unknown): AdminErrorShape {
  const error = asRequestError(thrown);
  if (error instanceof AppError) {
    const requiredScope = typeof error.details?.requiredScope === 'string' ? error.details.requiredScope : undefined;
    return { status: error.status, code: error.code, message: error.message, headers: { ...error.headers }, ...(requiredScope ? { requiredScope } : {}) };
  }
  if (error instanceof RequestValidationError) return { status: 400, code: 'invalid_request', message: error.message, headers: {} };
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message = fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'The request body is not valid JSON.' : fastifyError.message;
    return { status, code: v1CodeByStatus[status] ?? 'invalid_request', message, headers: {} };
  }
  // spec 000 §7 `unavailable`: the store could not serve; the caller may retry, unlike a gateway failure.
  if (isStoreUnavailable(error)) return { status: 503, code: 'unavailable', message: 'The gateway store is unavailable; retry shortly.', headers: { 'retry-after': '1' } };
  // A value the store refused (a NUL in text, an out-of-range number) is the caller's, not the gateway's.
  if (isDataRejection(error)) return { status: 400, code: 'invalid_request', message: 'The store refused a value of this request (a NUL character, or a value out of range).', headers: {} };
  return { status: 500, code: 'internal_error', message: 'The gateway failed to handle the request.', headers: {} };
}

/** The v1 envelope (spec 000 §7): every v1 error, whatever the status. */
export function v1ErrorBody(shape: AdminErrorShape, requestId: string) {
  const code = shape.code === 'internal_error' || isGenericCode(shape.code) ? (v1CodeByStatus[shape.status] ?? shape.code) : shape.code;
  return { error: { code, message: shape.message, ...(shape.requiredScope ? { required_scope: shape.requiredScope } : {}), request_id: requestId } };
}

/** Legacy `/admin/*` errors keep the simpler `{error: {code, message}}` shape. */
export function legacyErrorBody(shape: AdminErrorShape) {
  return { error: { code: shape.code, message: shape.message } };
}

function isGenericCode(code: string): boolean {
  return code === 'invalid_request' || code === 'not_found' || code === 'conflict';
}

export const adminErrors = {
  unauthenticated: () => new AppError({ status: 401, code: 'unauthenticated', message: 'A valid admin credential is required.' }),
  missingCapability: (capability: string) =>
    new AppError({ status: 403, code: 'forbidden', message: `This operation requires the ${capability} capability.`, details: { requiredCapability: capability } }),
  insufficientScope: (scope: string) =>
    new AppError({ status: 403, code: 'insufficient_scope', message: `This operation requires the ${scope} scope.`, details: { requiredScope: scope } }),
  // spec 000 §2: a scope-minted key has no capabilities, so every legacy gate rejects it.
  scopeKeyOnLegacy: () =>
    new AppError({ status: 403, code: 'forbidden', message: 'This admin API key was minted with v1 scopes; use it on /admin/v1/* only.' }),
  // spec 000 §5: in fleet mode a tenant-bound principal reaches tenant resources only.
  deploymentScopeRequired: () =>
    new AppError({ status: 403, code: 'deployment_scope_required', message: 'This operation acts on the whole deployment; a tenant-bound principal cannot call it.' }),
  // spec 000 §8: 300 requests per minute per principal on /admin/v1/*.
  rateLimited: (retryAfterSeconds: number) =>
    new AppError({ status: 429, code: 'rate_limited', message: 'Too many Management API requests from this principal; retry after the indicated delay.', retryable: true, headers: { 'retry-after': String(retryAfterSeconds) } }),
};
