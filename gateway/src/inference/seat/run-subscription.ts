import type { FastifyRequest } from 'fastify';
import { sha256Hex } from '@gw/platform';
import type { Attempt } from '../../routing/execute-plan.js';
import { singleTarget } from '../../routing/routing-config.js';
import type { ProviderInstance } from '../../providers/provider-types.js';
import { adapters } from '../../providers/adapters.js';
import { pickTranslator } from '../../providers/translate/index.js';
import { attemptTarget, passThrottle, sendThroughThrottle, type AttemptResult } from '../attempt-target.js';
import type { InferenceDeps } from '../inference-deps.js';
import { prepareUpstreamBody } from '../prepare-body.js';
import type { InferenceCall } from '../inference-call.js';
import { relayAnswer } from '../relay-answer.js';
import type { LaneReport, LaneScope, Sent } from '../lane-report.js';
import type { Selection } from '../../routing/resolve-route.js';
import type { Optimization } from '../../optimization/hook/pre-call-hook.js';
import { optimizeCall } from '../optimize-call.js';
import { conversationKey } from '../../routing/conversation-key.js';
import { gatewaySessionIdOf } from '../../optimization/hook/pre-call-hook.js';
import { subscriptionUpstreamHeaders } from './subscription-headers.js';
import { organizationProvider, seatUpstream } from './seat-upstream.js';
import { gatewayError } from '../../errors.js';

const hourMs = 3_600_000;

/** One try on the developer's own seat, by name: the seat's provider, the developer's token, the seat's pause key. */
interface SeatAttempt {
  call: InferenceCall;
  request: FastifyRequest;
  provider: ProviderInstance;
  credential: { header: string; value: string };
  /** The seat's throttle key (a hash of the token, never the token). */
  seat: string;
  signal: AbortSignal;
  /** The request is going to the provider now: the provider will see the prompt. */
  onSend: (selection: Selection, at: number) => void;
  /** Wait out a short pause or 429 on the seat; false when overflow is on, so a throttled seat overflows at once. */
  wait?: boolean;
}

/** One try on the developer's own seat: their token, the kept header families, the seat's throttle pause. */
async function attemptSeat(
  deps: Pick<InferenceDeps, 'attemptMetrics' | 'clock' | 'sleep' | 'throttle' | 'upstream'>,
  options: SeatAttempt,
): Promise<Attempt<AttemptResult>> {
  const { call, request, provider, credential, seat, signal, onSend } = options;
  const wait = options.wait ?? true;
  const model = String(call.body?.model);
  const selection = { provider, model };
  const record = (status: number | null) => deps.attemptMetrics.record('anthropic-seat', status);
  const refused = await passThrottle(deps, seat, selection, record, { wait });
  if (refused) return refused;
  const lane = pickTranslator('messages', 'anthropic');
  const prepared = prepareUpstreamBody({
    call,
    selection,
    lane,
    rawBody: call.rawBody === undefined ? request.rawBody : call.rawBody,
    clamp: false,
  });
  const url = adapters.anthropic.target(provider, call.operation, model).url;
  const headers = subscriptionUpstreamHeaders(
    request.headers,
    credential,
    request.headers['x-gw-custom-host'] !== undefined,
  );
  return sendThroughThrottle(deps, { selection, lane, prepared, url, headers, seat, signal, record, onSend }, { wait });
}

/** Overflow is on and could be used (before its hourly cap is consulted): then a throttled seat is not waited for. */
function overflowPossible(deps: Pick<InferenceDeps, 'providers' | 'seatPolicy'>, customHost: boolean): boolean {
  return deps.seatPolicy().seatOverflow && !customHost && organizationProvider(deps.providers) !== null;
}

/** Overflow onto the organization key, off by default, never with a custom host, capped per hour. */
async function overflowAllowed(
  deps: Pick<InferenceDeps, 'clock' | 'coord' | 'providers' | 'seatPolicy'>,
  customHost: boolean,
): Promise<ProviderInstance | null> {
  const policy = deps.seatPolicy();
  if (!policy.seatOverflow || customHost) return null;
  const organization = organizationProvider(deps.providers);
  if (!organization) return null;
  const hour = Math.floor(deps.clock.now() / hourMs);
  const used = await deps.coord.incrementBy(`seat-overflow:${hour}`, 1, hourMs).catch(() => Number.POSITIVE_INFINITY);
  return used <= policy.seatOverflowHourlyMaxRequests ? organization : null;
}

/** What the subscription lane uses: the seat upstream and its overflow onto the organization key, the optimizer hook, throttling, the metering stage. */
export type SubscriptionLaneDeps = Pick<
  InferenceDeps,
  | 'attemptMetrics'
  | 'clock'
  | 'coord'
  | 'customHosts'
  | 'logger'
  | 'optimizer'
  | 'optimizerBreaker'
  | 'pins'
  | 'providers'
  | 'routing'
  | 'seatPolicy'
  | 'sleep'
  | 'throttle'
  | 'upstream'
  | 'meter'
>;

/**
 * Subscription passthrough on the Messages lane: the developer's own subscription token goes to the
 * provider with only the kept client header families; routing and fallback are skipped; the body is still the
 * gateway's (optimized) body. The token is never logged or stored (the logger redacts both credential headers).
 */
export async function runSubscription(
  deps: SubscriptionLaneDeps,
  original: InferenceCall,
  scope: LaneScope,
  credential: { header: 'authorization' | 'x-api-key'; value: string },
): Promise<LaneReport> {
  const { request, reply, signal } = scope;
  let call = original;
  let optimization: Optimization | undefined;
  let sessionId: string | null = null;
  let billingMode: LaneReport['billingMode'] = 'passthrough';
  let attempts = 0;
  let selection: Selection | null = null;
  let lastSend: Sent | null = null;
  const onSend = (target: Selection, at: number) => (lastSend = { selection: target, at });
  const report = (end: LaneReport['end']): LaneReport => ({
    call,
    billingMode,
    selection,
    sent: lastSend,
    attempts,
    optimization,
    sessionId,
    end,
  });
  reply.header('x-gw-auth-mode', 'passthrough');
  try {
    const model = call.body?.model;
    if (typeof model !== 'string' || model.length === 0)
      throw gatewayError('invalid_request', 'body.model: a model id is required');
    const customHost =
      typeof request.headers['x-gw-custom-host'] === 'string' ? request.headers['x-gw-custom-host'] : undefined;
    const provider = await seatUpstream(deps.providers, customHost, deps.customHosts);
    const seat = `seat:${sha256Hex(credential.value).slice(0, 24)}`;
    // The body is still optimized on this lane; a seat cannot retrieve, so handles stay off.
    const identity = request.gw.identity;
    const sticky = conversationKey({
      sessionHeader:
        typeof request.headers['x-gw-session-id'] === 'string' ? request.headers['x-gw-session-id'] : undefined,
      metadata: identity?.metadata ?? {},
      body: call.body,
      caller: identity?.user ?? identity?.keyId ?? seat,
    });
    sessionId = gatewaySessionIdOf(sticky);
    const optimized = await optimizeCall(
      deps,
      call,
      request,
      { model, family: 'anthropic', subscription: true },
      sticky,
    );
    optimization = optimized.optimization;
    call = optimized.call;
    reply.header('x-gw-optimization', optimized.optimization.status).header('x-gw-cache', optimized.cacheStatus);
    const overflowOn = overflowPossible(deps, customHost !== undefined);
    let attempt = await attemptSeat(deps, {
      call,
      request,
      provider,
      credential,
      seat,
      signal,
      onSend,
      wait: !overflowOn,
    });
    attempts = 1;
    if (attempt.status === 429) {
      const organization = await overflowAllowed(deps, customHost !== undefined);
      // Overflow's hourly cap is spent: the seat's short pause is waited out after all.
      if (!organization && overflowOn) {
        await attempt.discard();
        attempt = await attemptSeat(deps, { call, request, provider, credential, seat, signal, onSend });
      }
      if (organization) {
        await attempt.discard();
        const route = { plan: singleTarget(organization.slug), via: 'default' as const, model };
        attempt = await attemptTarget(
          {
            deps,
            call,
            route,
            request,
            signal,
            onAttempt: (target, status) => deps.attemptMetrics.record(target.provider.slug, status),
            onSend,
          },
          route.plan,
        );
        attempts = 2;
        billingMode = 'subscription-extra';
        reply.header('x-gw-auth-mode', 'overflow');
      }
    }
    selection = attempt.result.selection;
    reply.header('x-gw-provider', attempt.result.selection.provider.slug);
    const relayed = await relayAnswer({
      deps,
      call,
      result: attempt.result,
      reply,
      request,
      signal,
      optimization,
      sessionId,
    });
    return report({ kind: 'relayed', relayed });
  } catch (thrown) {
    return report({ kind: 'failed', thrown });
  }
}
