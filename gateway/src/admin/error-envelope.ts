import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { normalizeRequestError } from '@gw/platform';
import { gatewayError } from '../errors.js';

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/** A caller-sent `x-request-id` is echoed when it is a sane token; otherwise one is minted. */
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

// The contract Management API v1 codes, by status, for failures that carry no code of their own (not an AppError).
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
  // Admin handlers call the store directly: an outage is a 503 the caller may retry, a refused value the caller's 400.
  const failure = normalizeRequestError(thrown, { service: 'gateway', storeOutages: true, refusedValues: true });
  if (failure.kind === 'coded') {
    const requiredScope =
      typeof failure.error.details?.requiredScope === 'string' ? failure.error.details.requiredScope : undefined;
    return {
      status: failure.status,
      code: failure.code,
      message: failure.message,
      headers: { ...failure.headers },
      ...(requiredScope ? { requiredScope } : {}),
    };
  }
  return {
    status: failure.status,
    code: v1CodeByStatus[failure.status] ?? failure.code,
    message: failure.message,
    headers: { ...failure.headers },
  };
}

/** The v1 envelope: every v1 error, whatever the status. */
export function v1ErrorBody(shape: AdminErrorShape, requestId: string) {
  const code =
    shape.code === 'internal_error' || isGenericCode(shape.code)
      ? (v1CodeByStatus[shape.status] ?? shape.code)
      : shape.code;
  return {
    error: {
      code,
      message: shape.message,
      ...(shape.requiredScope ? { required_scope: shape.requiredScope } : {}),
      request_id: requestId,
    },
  };
}

/** Legacy `/admin/*` errors keep the simpler `{error: {code, message}}` shape. */
export function legacyErrorBody(shape: AdminErrorShape) {
  return { error: { code: shape.code, message: shape.message } };
}

function isGenericCode(code: string): boolean {
  return code === 'invalid_request' || code === 'not_found' || code === 'conflict';
}

/** The admin plane's coded errors, from the gateway's catalog (`src/errors.ts`), with the messages that name a grant. */
export const adminErrors = {
  unauthenticated: () => gatewayError('unauthenticated'),
  missingCapability: (capability: string) =>
    gatewayError('forbidden', `This operation requires the ${capability} capability.`, {
      details: { requiredCapability: capability },
    }),
  insufficientScope: (scope: string) =>
    gatewayError('insufficient_scope', `This operation requires the ${scope} scope.`, {
      details: { requiredScope: scope },
    }),
  // A scope-minted key has no capabilities, so every legacy gate rejects it.
  scopeKeyOnLegacy: () =>
    gatewayError('forbidden', 'This admin API key was minted with v1 scopes; use it on /admin/v1/* only.'),
  // In fleet mode a tenant-bound principal reaches tenant resources only.
  deploymentScopeRequired: () => gatewayError('deployment_scope_required'),
  // 300 requests per minute per principal on /admin/v1/* (README.md in this folder).
  rateLimited: (retryAfterSeconds: number) =>
    gatewayError(
      'rate_limited',
      'Too many Management API requests from this principal; retry after the indicated delay.',
      { retryable: true, headers: { 'retry-after': String(retryAfterSeconds) } },
    ),
};
