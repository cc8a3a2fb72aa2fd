import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@gw/platform';
import { forwardOpaque } from '../relay-opaque.js';
import type { InferenceDeps } from '../inference-deps.js';
import { buildSpendRecord, type CallOutcome } from '../spend-from-call.js';
import { subscriptionCredential, subscriptionUpstreamHeaders } from './subscription-headers.js';
import { seatUpstream } from './seat-upstream.js';
import { recordSpend } from '../../metering/record-spend.js';

/**
 * `/v1/vendor/:plan/:seat/*` (spec 000 §4.1): the seat carrier lane of a coding assistant. The developer's seat token
 * is forwarded so the vendor bills its plan; the gateway key travels in `x-gw-api-key`. Opaque: no schema, metered.
 */
export async function runVendorLane(deps: InferenceDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const url = new URL(request.url, 'http://gateway.invalid');
  const rest = url.pathname.split('/').slice(5).join('/');
  const endpoint = '/v1/vendor/*';
  const body = (request.body ?? undefined) as Record<string, unknown> | undefined;
  const outcome: CallOutcome = { status: 500, selection: null, usage: undefined, upstreamMs: null, errorCode: null, stream: false, firstByteMs: null, attempts: 1, billingMode: 'passthrough' };
  const call = { endpoint, operation: { kind: 'passthrough' as const, path: `/${rest}`, search: url.search }, clientFormat: 'messages' as const, body };
  reply.header('x-gw-auth-mode', 'passthrough');
  try {
    const credential = subscriptionCredential(request.headers);
    if (!credential || !request.headers['x-gw-api-key']) {
      throw new AppError({ status: 400, code: 'seat_token_required', message: 'The vendor lane forwards your own seat token: send it in Authorization (or x-api-key) and your gw key in x-gw-api-key.' });
    }
    const customHost = typeof request.headers['x-gw-custom-host'] === 'string' ? request.headers['x-gw-custom-host'] : undefined;
    const provider = await seatUpstream(deps.providers, customHost, deps.customHosts);
    outcome.selection = { provider, model: typeof body?.model === 'string' ? body.model : '' };
    return await forwardOpaque(deps, reply, outcome, {
      url: `${provider.baseUrl}/${underBase(provider.baseUrl, rest)}${url.search}`,
      method: request.method,
      headers: subscriptionUpstreamHeaders(request.headers, credential, customHost !== undefined),
      ...(request.rawBody && request.method !== 'GET' ? { body: request.rawBody } : {}),
      provider: { slug: provider.slug, family: 'anthropic' },
      requestBody: body,
    });
  } catch (error) {
    outcome.status = error instanceof AppError ? error.status : 500;
    outcome.errorCode = error instanceof AppError ? error.code : 'internal_error';
    throw error;
  } finally {
    recordSpend(deps.spend, request, buildSpendRecord({ request, call, outcome, now: deps.clock.now(), id: randomUUID() }));
  }
}

/**
 * The provider path under a base URL that already names the API version (`…/v1`): an SDK pointed at the lane prefix
 * (`baseURL: …/v1/vendor/<plan>/<seat>`) sends `v1/messages`, a client configured with the versioned prefix sends
 * `messages`; both reach `…/v1/messages`.
 */
function underBase(baseUrl: string, rest: string): string {
  const version = /\/(v\d+)$/.exec(baseUrl)?.[1];
  return version && rest.startsWith(`${version}/`) ? rest.slice(version.length + 1) : rest;
}
