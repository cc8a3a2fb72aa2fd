import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, RequestValidationError, asRequestError } from '@gw/platform';
import { KeyFailure } from '../errors.js';

type Envelope = { status: number; body: unknown; headers: Record<string, string> };

const openAiTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_quota',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  503: 'service_unavailable',
};
const messagesTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  503: 'api_error',
};

/** The `error.type` an OpenAI-style client expects for a status. */
export function openAiErrorType(status: number): string {
  return openAiTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** Map anything thrown on `/v1/*` to the envelope its client understands (spec 000 §7, inference plane). */
export function toInferenceEnvelope(error: unknown, messagesLane: boolean): Envelope {
  if (error instanceof KeyFailure) {
    return { status: error.status, body: { status: 'failure', code: error.code, message: error.message, hint: error.hint }, headers: { ...error.headers } };
  }
  const { status, code, message, headers } = classify(error);
  const type = messagesLane ? (messagesTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')) : openAiErrorType(status);
  const body = messagesLane ? { type: 'error', error: { type, message } } : { error: { message, type, code } };
  return { status, body, headers };
}

function classify(thrown: unknown): { status: number; code: string; message: string; headers: Record<string, string> } {
  const error = asRequestError(thrown);
  if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message, headers: { ...error.headers } };
  if (error instanceof RequestValidationError) return { status: 400, code: 'invalid_request', message: error.message, headers: {} };
  const fastifyError = error as FastifyError;
  if (fastifyError.validation || fastifyError.code === 'FST_ERR_VALIDATION') return { status: 400, code: 'invalid_request', message: fastifyError.message, headers: {} };
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'invalid_json' : status === 413 ? 'body_too_large' : 'invalid_request';
    return { status, code, message: status === 400 && code === 'invalid_json' ? 'The request body is not valid JSON.' : fastifyError.message, headers: {} };
  }
  return { status: 500, code: 'internal_error', message: 'The gateway failed to handle the request.', headers: {} };
}

export function installInferenceErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (error, request, reply) => {
    const envelope = toInferenceEnvelope(error, request.url.startsWith('/v1/messages'));
    if (envelope.status >= 500 && !(error instanceof AppError)) request.log.error({ err: error }, 'unhandled inference error');
    return reply.code(envelope.status).headers(envelope.headers).send(envelope.body);
  });
}
