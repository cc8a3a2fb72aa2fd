import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError, normalizeRequestError, type Clock } from '@gw/platform';
import { rejectionRecord } from '../chain/admission/rejection-record.js';
import { recordSpend } from '../metering/record-spend.js';
import type { SpendRecorder } from '../metering/spend-recorder.js';
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

/** Map anything thrown on `/v1/*` to the envelope its client understands (spec 000 §7, inference plane). */
export function toInferenceEnvelope(thrown: unknown, messagesLane: boolean): Envelope {
  const { error, status, code, message, headers } = normalizeRequestError(thrown, { service: 'gateway' });
  if (error instanceof KeyFailure) return { status, body: { status: 'failure', code, message, hint: error.hint }, headers: { ...headers }, code };
  const type = messagesLane ? (messagesTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')) : openAiErrorType(status);
  const body = messagesLane ? { type: 'error', error: { type, message } } : { error: { message, type, code } };
  return { status, body, headers: { ...headers }, code };
}

/**
 * The inference scope's error handler: the envelope its client understands, and the one spend row of a request that
 * ended before any stage recorded it (a body that did not parse or validate, spec 000 §1.4: one record per call).
 * Requests without an identity (401s) and routes that call no provider (`unmetered`) are not.
 */
export function installInferenceErrorHandler(app: FastifyInstance, deps: { spend: Pick<SpendRecorder, 'record'>; clock: Clock }): void {
  app.setErrorHandler(async (error, request, reply) => {
    const envelope = toInferenceEnvelope(error, request.url.startsWith('/v1/messages'));
    if (envelope.status >= 500 && !(error instanceof AppError)) request.log.error({ err: error }, 'unhandled inference error');
    if (request.gw?.identity && !request.gw.metered && envelope.status < 500 && request.routeOptions.config.unmetered !== true) {
      recordSpend(deps.spend, request, rejectionRecord({ request, denial: { status: envelope.status, code: envelope.code }, now: deps.clock.now(), id: randomUUID() }));
    }
    return reply.code(envelope.status).headers(envelope.headers).send(envelope.body);
  });
}
