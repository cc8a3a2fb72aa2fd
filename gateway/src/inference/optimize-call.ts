import type { FastifyRequest } from 'fastify';
import { gatewaySessionIdOf, runPreCallHook, type Optimization } from '../optimization/hook/pre-call-hook.js';
import { forwardRetrievalTools } from '../optimization/hook/retrieval-tool-forwarding.js';
import type { ProviderFamily } from '../providers/provider-types.js';
import type { InferenceDeps } from './inference-deps.js';
import type { InferenceCall } from './run-inference.js';

/**
 * Stage 5's optimizer step: run the fail-open pre-call hook on the client's body and return the call to forward
 * (the optimizer's body when applied; raw bytes are then no longer the client's) with the outcome for the spend row.
 */
export async function optimizeCall(
  deps: InferenceDeps,
  call: InferenceCall,
  request: FastifyRequest,
  target: { model: string; family: ProviderFamily; subscription: boolean },
  conversationKey: string | null,
): Promise<{ call: InferenceCall; optimization: Optimization }> {
  const identity = request.gw.identity;
  const keyId = identity?.keyId ?? null;
  const clientCanRetrieve = deps.optimizer !== null && keyId !== null && deps.retrievalLease !== undefined ? await deps.retrievalLease.isLeased(keyId).catch(() => false) : false;
  const optimization = await runPreCallHook(
    { optimizer: deps.optimizer, breaker: deps.optimizerBreaker ?? null, pins: deps.pins, now: () => deps.clock.now(), logger: deps.logger },
    {
      endpoint: call.endpoint,
      body: call.body ?? {},
      model: target.model,
      family: target.family,
      user: identity?.user ?? null,
      team: identity?.team ?? null,
      gatewaySessionId: gatewaySessionIdOf(conversationKey),
      clientCanRetrieve,
      billingMode: call.seat || target.subscription ? 'subscription' : 'api_key',
      metadata: identity?.metadata ?? {},
      // A stream cannot be answered from a stored JSON response, so its cache keys stay shadow-only.
      canShortCircuit: call.body?.stream !== true,
      modelFacts: deps.routing.documents.models,
    },
  );
  const sessionId = gatewaySessionIdOf(conversationKey);
  const withTools = await forwardRetrievalTools({ coord: deps.coord, sessionId, body: optimization.body, format: call.clientFormat, clientCanRetrieve });
  if (withTools) return { call: { ...call, body: withTools, rawBody: null }, optimization };
  if (!optimization.changed) return { call, optimization };
  return { call: { ...call, body: optimization.body, rawBody: null }, optimization };
}
