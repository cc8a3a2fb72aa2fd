import { firstHeader } from '../shared/first-header.js';
import { conversationKey } from '../routing/conversation-key.js';
import { executePlan } from '../routing/execute-plan.js';
import type { RoutingNode } from '../routing/routing-config.js';
import { firstTarget, resolveRoute, type Selection } from '../routing/resolve-route.js';
import { attemptTarget } from './attempt-target.js';
import { optimizeCall } from './optimize-call.js';
import { gatewaySessionIdOf, type Optimization } from '../optimization/hook/pre-call-hook.js';
import type { InferenceDeps } from './inference-deps.js';
import type { LaneReport, LaneScope, Sent } from './lane-report.js';
import { relayAnswer } from './relay-answer.js';
import { checkRequestCacheSettings, requestCachePolicy, writableBy } from './request-cache-policy.js';
import type { InferenceCall } from './inference-call.js';
import { gatewayError } from '../errors.js';

// A retry waits at most this long server-side, whatever the provider asks.
const maxRetryWaitMs = 30_000;
function balances(node: RoutingNode): boolean {
  return node.kind === 'group' && (node.mode === 'loadbalance' || node.targets.some(balances));
}

/** What the JSON and SSE lane uses: routing and retries, the optimizer hook, throttling, the metering stage. */
export type InferenceLaneDeps = Pick<
  InferenceDeps,
  | 'attemptMetrics'
  | 'clock'
  | 'coord'
  | 'logger'
  | 'optimizer'
  | 'optimizerBreaker'
  | 'pins'
  | 'providers'
  | 'random'
  | 'routing'
  | 'sleep'
  | 'throttle'
  | 'upstream'
  | 'meter'
>;

/**
 * The handler stage for named inference operations: resolve the route, run its plan (fallback,
 * sticky load balancing, per-target retry), relay the final answer (same family byte-faithful, crossing translated)
 * and report what happened, naming the target that answered; the metering stage records it.
 */
export async function runInference(
  deps: InferenceLaneDeps,
  call: InferenceCall,
  scope: LaneScope,
): Promise<LaneReport> {
  const { request, reply, signal } = scope;
  let sent = call;
  let optimization: Optimization | undefined;
  let sessionId: string | null = null;
  // The target a request last went to: a call cut before the answer still cost that provider the prompt.
  let lastSend: Sent | null = null;
  // The plan's final attempt: who answered, after how many tries.
  let answered: { selection: Selection; attempts: number } | null = null;
  const report = (end: LaneReport['end']): LaneReport => ({
    call: sent,
    billingMode: 'api-key',
    sent: lastSend,
    optimization,
    sessionId,
    selection: answered?.selection ?? null,
    attempts: answered?.attempts ?? 0,
    end,
  });
  try {
    const model = call.body?.model;
    if (typeof model !== 'string' || model.length === 0)
      throw gatewayError('invalid_request', 'body.model: a model id or alias is required');
    const route = resolveRoute(
      {
        headerProvider: firstHeader(request, 'x-gw-provider'),
        configHeader: firstHeader(request, 'x-gw-config'),
        model,
      },
      deps.providers,
      deps.routing,
    );
    const identity = request.gw.identity;
    // The conversation key drives sticky load balancing and the optimizer's session; skip the hashing when neither applies.
    const needsConversation = deps.optimizer !== null || balances(route.plan);
    const sticky = needsConversation
      ? conversationKey({
          sessionHeader: firstHeader(request, 'x-gw-session-id'),
          metadata: identity?.metadata ?? {},
          body: call.body,
          caller: identity?.user ?? identity?.keyId ?? 'anonymous',
        })
      : null;
    sessionId = gatewaySessionIdOf(sticky);
    const firstProvider = deps.providers.get(firstTarget(route.plan).provider);
    // The response cache lives in the optimizer: without one there is no policy to decide, only the header to check.
    const cache = deps.optimizer ? requestCachePolicy(deps, call, request, route) : checkRequestCacheSettings(request);
    const optimized = await optimizeCall(
      deps,
      call,
      request,
      { model: route.model, family: firstProvider?.family ?? 'openai', subscription: false, cache },
      sticky,
    );
    reply.header('x-gw-cache', optimized.cacheStatus);
    sent = optimized.call;
    optimization = optimized.optimization;
    reply.header('x-gw-optimization', optimized.optimization.status);
    if (optimized.optimization.cache.hit && cache)
      return report({
        kind: 'relayed',
        relayed: serveCacheHit(optimized.optimization.cache.hit, cache.producer, scope),
      });
    const attemptScope = {
      deps,
      call: sent,
      route,
      request,
      signal,
      onAttempt: (selection: { provider: { slug: string } }, status: number | null) =>
        deps.attemptMetrics.record(selection.provider.slug, status),
      onSend: (selection: Selection, at: number) => (lastSend = { selection, at }),
    };
    const execution = await executePlan(route.plan, (target) => attemptTarget(attemptScope, target), {
      conversationKey: sticky,
      random: deps.random,
      sleep: deps.sleep,
      maxRetryWaitMs,
    });
    const result = execution.attempt.result;
    answered = { selection: result.selection, attempts: execution.attempts };
    optimization = writableBy(optimization, cache, result.selection);
    reply
      .header('x-gw-provider', result.selection.provider.slug)
      .header('x-gw-target', `${result.selection.provider.slug}/${result.selection.model}`)
      .header('x-gw-attempts', String(execution.attempts));
    const relayed = await relayAnswer({ deps, call: sent, result, reply, request, signal, optimization, sessionId });
    return report({ kind: 'relayed', relayed });
  } catch (thrown) {
    return report({ kind: 'failed', thrown });
  }
}

/** A semantic-cache hit is served directly (no provider call, no provider cost), naming the target that produced it. */
function serveCacheHit(hit: Record<string, unknown>, producer: { provider: string; model: string }, scope: LaneScope) {
  scope.reply
    .header('x-gw-cache', 'hit')
    .header('x-gw-provider', producer.provider)
    .header('x-gw-target', `${producer.provider}/${producer.model}`)
    .header('x-gw-attempts', '0');
  scope.reply.code(200).header('content-type', 'application/json').send(JSON.stringify(hit));
  return { status: 200, errorCode: null, usage: undefined, usageEstimated: false, stream: false, firstByteMs: null };
}
