import type { FastifyInstance } from 'fastify';
import { AppError, normalizeRequestError } from '@gw/platform';
import { KeyFailure } from '../errors.js';

type Envelope = { status: number; body: unknown; headers: Record<string, string>; code: string };

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

/** Map anything thrown on `/v1/*` to the envelope its client understands. */
export function toInferenceEnvelope(thrown: unknown, messagesLane: boolean): Envelope {
  const { error, status, code, message, headers } = normalizeRequestError(thrown, { service: 'gateway' });
  if (error instanceof KeyFailure)
    return { status, body: { status: 'failure', code, message, hint: error.hint }, headers: { ...headers }, code };
  const type = messagesLane
    ? (messagesTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'))
    : openAiErrorType(status);
  const body = messagesLane ? { type: 'error', error: { type, message } } : { error: { message, type, code } };
  return { status, body, headers: { ...headers }, code };
}

/**
 * The inference scope's error handler: the envelope its client understands. The call's spend row is the metering
 * stage's (`../chain/metering/`), recorded before this runs.
 */
export function installInferenceErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (error, request, reply) => {
    const envelope = toInferenceEnvelope(error, request.url.startsWith('/v1/messages'));
    if (envelope.status >= 500 && !(error instanceof AppError))
      request.log.error({ err: error }, 'unhandled inference error');
    return reply.code(envelope.status).headers(envelope.headers).send(envelope.body);
  });
}
