import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, RequestValidationError, asRequestError } from '@gw/platform';
import { KeyFailure } from '../errors.js';

/** Coded errors of the connect surface (spec 000 §4.2, §7). */
export const connectErrors = {
  handleNotFound: () => new AppError({ status: 404, code: 'handle_not_found', message: 'The handle is unknown or has expired.' }),
  retrievalUnavailable: () => new AppError({ status: 503, code: 'retrieval_unavailable', message: 'The retrieval store is unavailable; the original cannot be fetched right now.', retryable: true }),
  sliceUnsupported: () =>
    new AppError({
      status: 503,
      code: 'slice_unsupported',
      message: 'The optimizer behind this gateway does not support startLine, endLine or grep; retrieve the whole original with only the handle.',
    }),
  leaseStoreUnavailable: () => new AppError({ status: 503, code: 'lease_store_unavailable', message: 'The retrieval lease could not be renewed; retry shortly.', retryable: true }),
  invalidJson: () => new AppError({ status: 400, code: 'invalid_json', message: 'The request body is not valid JSON.' }),
} as const;

/**
 * One envelope for the whole connect surface: `{status: "failure", code, message, hint?}` — the machine envelope that
 * client-key failures use (spec 000 §7), extended to every connect error so the CLI reads one shape.
 */
export function installConnectErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (error, request, reply) => {
    const { status, code, message, headers, hint } = classify(error);
    if (status >= 500 && !(error instanceof AppError)) request.log.error({ err: error }, 'unhandled connect error');
    return reply
      .code(status)
      .headers(headers)
      .send({ status: 'failure', code, message, ...(hint ? { hint } : {}) });
  });
}

function classify(thrown: unknown): { status: number; code: string; message: string; headers: Record<string, string>; hint?: string } {
  const error = asRequestError(thrown);
  if (error instanceof KeyFailure) return { status: error.status, code: error.code, message: error.message, headers: { ...error.headers }, hint: error.hint };
  if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message, headers: { ...error.headers } };
  if (error instanceof RequestValidationError) return { status: 400, code: 'invalid_request', message: error.message, headers: {} };
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = status === 413 ? 'body_too_large' : status === 415 ? 'unsupported_media_type' : 'invalid_request';
    return { status, code, message: fastifyError.message, headers: {} };
  }
  return { status: 500, code: 'internal_error', message: 'The gateway failed to handle the request.', headers: {} };
}
