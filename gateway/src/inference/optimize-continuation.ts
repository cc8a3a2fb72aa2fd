import { hash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ContinuationHolds, isVerifiedContinuation } from '../optimization/hook/agent-continuation.js';
import {
  continuationUnavailable,
  gatewaySessionIdOf,
  runPreCallHook,
  untouched,
  type Optimization,
} from '../optimization/hook/pre-call-hook.js';
import { conversationKey } from '../routing/conversation-key.js';
import type { Selection } from '../routing/resolve-route.js';
import { firstHeader } from '../shared/first-header.js';
import type { InferenceDeps } from './inference-deps.js';
import { retrievalStandingOf } from './retrieval-standing.js';

export interface ContinuationOutcome {
  optimization: Optimization;
  sessionId: string | null;
  /** The body to send instead of the client's bytes; null keeps the byte-faithful passthrough. */
  body: Record<string, unknown> | null;
}

const responsesEndpoint = '/v1/responses';

/**
 * The Responses lane's optimizer step. Only a `POST /v1/responses` the gateway verified as an agent's continuation
 * transcript (`isVerifiedContinuation`) is offered, with `capabilities.agentContinuation`; every other Responses call
 * (null here) keeps the opaque passthrough untouched. The optimizer's rewrite is used only when its answer asserts
 * `features.agentContinuationV1`, that is the continuation path was activated and served; otherwise the call fails
 * open with the client's bytes and the session is held on the passthrough for the cooldown.
 */
export async function optimizeContinuation(
  deps: Pick<InferenceDeps, 'clock' | 'coord' | 'logger' | 'optimizer' | 'pins' | 'routing'>,
  request: FastifyRequest,
  body: Record<string, unknown> | undefined,
  selection: Selection,
): Promise<ContinuationOutcome | null> {
  if (
    !deps.optimizer ||
    request.method !== 'POST' ||
    selection.provider.family !== 'openai' ||
    !body ||
    !isVerifiedContinuation(body)
  )
    return null;
  const identity = request.gw.identity;
  const caller = identity?.user ?? identity?.keyId ?? 'anonymous';
  // A Responses transcript opens with `instructions` and its first user item, as a chat opens with system and user.
  const sticky = conversationKey({
    sessionHeader: firstHeader(request, 'x-gw-session-id'),
    metadata: identity?.metadata ?? {},
    body: { system: body.instructions, messages: body.input },
    caller,
  });
  const sessionId = gatewaySessionIdOf(sticky);
  const holds = new ContinuationHolds(deps.coord);
  if (sessionId && (await holds.isHeld(sessionId)))
    return { optimization: untouched(body, 'skipped', 'session_held', null), sessionId, body: null };
  const standing = await retrievalStandingOf(deps, request, body);
  const optimization = await runPreCallHook(
    { optimizer: deps.optimizer, pins: deps.pins, now: () => deps.clock.now(), logger: deps.logger },
    {
      endpoint: responsesEndpoint,
      body,
      model: selection.model,
      family: selection.provider.family,
      user: identity?.user ?? null,
      team: identity?.team ?? null,
      gatewaySessionId: sessionId,
      // A continuation has no callable tool, so the model cannot retrieve whatever the key's lease says: the path is
      // handle-free. The verdict still goes out, for the evidence class on the row.
      clientCanRetrieve: false,
      retrievalDiscovery: standing.discovery,
      agentContinuation: true,
      billingMode: 'api_key',
      metadata: identity?.metadata ?? {},
      // The opaque lane neither serves nor writes back cached answers: the partition is the lane and caller's own.
      canShortCircuit: false,
      cache: {
        scope: hash('sha256', JSON.stringify(['lane', responsesEndpoint, 'api_key', caller]), 'base64url').slice(0, 32),
        serve: false,
        store: false,
        maxAgeSeconds: null,
      },
      modelFacts: deps.routing.documents.models,
    },
  );
  const failedOpen =
    optimization.reason === continuationUnavailable ||
    optimization.status === 'timeout' ||
    optimization.status === 'error';
  if (failedOpen && sessionId) await holds.hold(sessionId);
  return { optimization, sessionId, body: optimization.changed ? optimization.body : null };
}
