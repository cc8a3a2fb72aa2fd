import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, sha256Hex } from '@gw/platform';
import type { Attempt } from '../../routing/execute-plan.js';
import { singleTarget } from '../../routing/routing-config.js';
import type { ProviderInstance } from '../../providers/provider-types.js';
import { adapters } from '../../providers/adapters.js';
import { pickTranslator } from '../../providers/translate/index.js';
import { attemptTarget, passThrottle, sendPrepared, type AttemptResult } from '../attempt-target.js';
import { abortCauseOf, abortedCallError, callSignal } from '../call-signal.js';
import type { InferenceDeps } from '../inference-deps.js';
import { prepareUpstreamBody } from '../prepare-body.js';
import { relay, type InferenceCall } from '../run-inference.js';
import { buildSpendRecord, type CallOutcome } from '../spend-from-call.js';
import { optimizeCall } from '../optimize-call.js';
import { conversationKey } from '../../routing/conversation-key.js';
import { gatewaySessionIdOf } from '../../optimization/hook/pre-call-hook.js';
import { subscriptionUpstreamHeaders } from './subscription-headers.js';
import { organizationProvider, seatUpstream } from './seat-upstream.js';
import { recordSpend } from '../../metering/record-spend.js';

const hourMs = 3_600_000;

/** One try on the developer's own seat: their token, the kept header families, the seat's throttle pause. */
async function attemptSeat(deps: InferenceDeps, call: InferenceCall, request: FastifyRequest, provider: ProviderInstance, credential: { header: string; value: string }, seat: string, signal: AbortSignal): Promise<Attempt<AttemptResult>> {
  const model = String(call.body?.model);
  const selection = { provider, model };
  const record = (status: number | null) => deps.attemptMetrics.record('anthropic-seat', status);
  const refused = await passThrottle(deps, seat, selection, record);
  if (refused) return refused;
  const lane = pickTranslator('messages', 'anthropic');
  const prepared = prepareUpstreamBody({ call, selection, lane, rawBody: call.rawBody === undefined ? request.rawBody : call.rawBody, clamp: false });
  const url = adapters.anthropic.target(provider, call.operation, model).url;
  const headers = subscriptionUpstreamHeaders(request.headers, credential, request.headers['x-gw-custom-host'] !== undefined);
  return sendPrepared(deps, { selection, lane, prepared, url, headers, seat, signal, record });
}

/** spec 000 §1.13: overflow onto the organization key, off by default, never with a custom host, capped per hour. */
async function overflowAllowed(deps: InferenceDeps, customHost: boolean): Promise<ProviderInstance | null> {
  const policy = deps.seatPolicy();
  if (!policy.seatOverflow || customHost) return null;
  const organization = organizationProvider(deps.providers);
  if (!organization) return null;
  const hour = Math.floor(deps.clock.now() / hourMs);
  const used = await deps.coord.incrementBy(`seat-overflow:${hour}`, 1, hourMs).catch(() => Number.POSITIVE_INFINITY);
  return used <= policy.seatOverflowHourlyMaxRequests ? organization : null;
}

/**
 * Subscription passthrough on the Messages lane (spec 000 §1.11): the developer's own subscription token goes to the
 * provider with only the kept client header families; routing and fallback are skipped; the body is still the
 * gateway's (optimized) body. The token is never logged or stored (the logger redacts both credential headers).
 */
export async function runSubscription(deps: InferenceDeps, call: InferenceCall, request: FastifyRequest, reply: FastifyReply, credential: { header: 'authorization' | 'x-api-key'; value: string }): Promise<FastifyReply> {
  const outcome: CallOutcome = { status: 500, selection: null, usage: undefined, upstreamMs: null, errorCode: null, stream: call.body?.stream === true, firstByteMs: null, attempts: 0, billingMode: 'passthrough' };
  reply.header('x-gw-auth-mode', 'passthrough');
  let signal: AbortSignal | null = null;
  try {
    const model = call.body?.model;
    if (typeof model !== 'string' || model.length === 0) throw new AppError({ status: 400, code: 'invalid_request', message: 'body.model: a model id is required' });
    const customHost = typeof request.headers['x-gw-custom-host'] === 'string' ? request.headers['x-gw-custom-host'] : undefined;
    const provider = await seatUpstream(deps.providers, customHost, deps.customHosts);
    signal = callSignal(reply, deps.shutdown);
    const seat = `seat:${sha256Hex(credential.value).slice(0, 24)}`;
    // The body is still optimized on this lane (spec 000 §1.11); a seat cannot retrieve, so handles stay off.
    const identity = request.gw.identity;
    const sticky = conversationKey({ sessionHeader: typeof request.headers['x-gw-session-id'] === 'string' ? request.headers['x-gw-session-id'] : undefined, metadata: identity?.metadata ?? {}, body: call.body, caller: identity?.user ?? identity?.keyId ?? seat });
    outcome.sessionId = gatewaySessionIdOf(sticky);
    const optimized = await optimizeCall(deps, call, request, { model, family: 'anthropic', subscription: true }, sticky);
    outcome.optimization = optimized.optimization;
    call = optimized.call;
    reply.header('x-gw-optimization', optimized.optimization.status);
    let attempt = await attemptSeat(deps, call, request, provider, credential, seat, signal);
    outcome.attempts = 1;
    if (attempt.status === 429) {
      const organization = await overflowAllowed(deps, customHost !== undefined);
      if (organization) {
        await attempt.discard();
        const route = { plan: singleTarget(organization.slug), via: 'default' as const, model };
        attempt = await attemptTarget({ deps, call, route, request, signal, onAttempt: (selection, status) => deps.attemptMetrics.record(selection.provider.slug, status) }, route.plan);
        outcome.attempts = 2;
        outcome.billingMode = 'subscription-extra';
        reply.header('x-gw-auth-mode', 'overflow');
      }
    }
    outcome.selection = attempt.result.selection;
    reply.header('x-gw-provider', attempt.result.selection.provider.slug);
    return await relay(deps, call, attempt.result, outcome, reply, request, signal);
  } catch (thrown) {
    const cause = signal ? abortCauseOf(signal) : null;
    const error = cause ? abortedCallError(cause) : thrown;
    outcome.errorCode = error instanceof AppError ? error.code : 'internal_error';
    outcome.status = error instanceof AppError ? error.status : 500;
    throw error;
  } finally {
    recordSpend(deps.spend, request, buildSpendRecord({ request, call, outcome, now: deps.clock.now(), id: randomUUID(), modelFacts: deps.routing.documents.models }));
  }
}
