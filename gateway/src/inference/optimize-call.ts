import type { FastifyRequest } from 'fastify';
import {
  gatewaySessionIdOf,
  optimizerNotConfigured,
  runPreCallHook,
  type HookInput,
  type Optimization,
} from '../optimization/hook/pre-call-hook.js';
import { forwardRetrievalTools } from '../optimization/hook/retrieval-tool-forwarding.js';
import { retrievalStandingOf } from './retrieval-standing.js';
import type { ProviderFamily } from '../providers/provider-types.js';
import type { InferenceDeps } from './inference-deps.js';
import { cacheScopeOf, type CachePolicy } from './cache-policy.js';
import type { InferenceCall } from './inference-call.js';

/**
 * Stage 5's optimizer step: run the fail-open pre-call hook on the client's body and return the call to forward
 * (the optimizer's body when applied; raw bytes are then no longer the client's) with the outcome for the spend row.
 */
export async function optimizeCall(
  deps: Pick<InferenceDeps, 'clock' | 'coord' | 'logger' | 'optimizer' | 'optimizerBreaker' | 'pins' | 'routing'>,
  call: InferenceCall,
  request: FastifyRequest,
  target: { model: string; family: ProviderFamily; subscription: boolean; cache?: CachePolicy },
  conversationKey: string | null,
): Promise<{ call: InferenceCall; optimization: Optimization; cacheStatus: 'hit' | 'miss' | 'bypass' }> {
  // Without an optimizer there is nothing to rewrite and no cache to consult: skip the standing, the scope and the hook.
  if (!deps.optimizer) return { call, optimization: optimizerNotConfigured(call.body ?? {}), cacheStatus: 'bypass' };
  const identity = request.gw.identity;
  const billingMode = call.seat || target.subscription ? 'subscription' : 'api_key';
  const policy = target.cache;
  const cache = hookCacheRule(policy, [call.endpoint, billingMode, callerOf(identity)]);
  const standing = await retrievalStandingOf(deps, request, call.body ?? {});
  const optimization = await runPreCallHook(
    {
      optimizer: deps.optimizer,
      breaker: deps.optimizerBreaker ?? null,
      pins: deps.pins,
      now: () => deps.clock.now(),
      logger: deps.logger,
    },
    {
      endpoint: call.endpoint,
      body: call.body ?? {},
      model: target.model,
      family: target.family,
      user: identity?.user ?? null,
      team: identity?.team ?? null,
      gatewaySessionId: gatewaySessionIdOf(conversationKey),
      clientCanRetrieve: standing.clientCanRetrieve,
      retrievalDiscovery: standing.discovery,
      billingMode,
      metadata: identity?.metadata ?? {},
      // A stream cannot be answered from a stored JSON response, so its cache keys stay shadow-only.
      canShortCircuit: call.body?.stream !== true && policy !== undefined && policy.mode !== 'bypass',
      cache,
      modelFacts: deps.routing.documents.models,
    },
  );
  const cacheStatus = cacheStatusOf(optimization, policy);
  const sessionId = gatewaySessionIdOf(conversationKey);
  const withTools = await forwardRetrievalTools({
    coord: deps.coord,
    sessionId,
    body: optimization.body,
    format: call.clientFormat,
    clientCanRetrieve: standing.leaseLive,
  });
  if (withTools) return { call: { ...call, body: withTools, rawBody: null }, optimization, cacheStatus };
  if (!optimization.changed) return { call, optimization, cacheStatus };
  return { call: { ...call, body: optimization.body, rawBody: null }, optimization, cacheStatus };
}

/**
 * The hook's cache rule from the lane's policy. A lane without one (seats, the editor extension) never serves a hit;
 * its measurement-only entries stay in a partition of their own endpoint, billing lane and caller.
 */
function hookCacheRule(policy: CachePolicy | undefined, laneAndCaller: string[]): HookInput['cache'] {
  if (policy)
    return {
      scope: cacheScopeOf(policy),
      serve: policy.mode === 'use',
      store: policy.store,
      maxAgeSeconds: policy.maxAgeSeconds,
    };
  return {
    scope: cacheScopeOf({ partition: ['lane', ...laneAndCaller] }),
    serve: false,
    store: true,
    maxAgeSeconds: null,
  };
}

const callerOf = (identity: FastifyRequest['gw']['identity']) => identity?.user ?? identity?.keyId ?? 'anonymous';

/** `x-gw-cache`: served from the cache, looked up and not found, or the cache was not consulted for this call. */
function cacheStatusOf(optimization: Optimization, policy: CachePolicy | undefined): 'hit' | 'miss' | 'bypass' {
  if (optimization.cache.hit) return 'hit';
  return policy?.mode === 'use' && optimization.cache.key !== null ? 'miss' : 'bypass';
}
