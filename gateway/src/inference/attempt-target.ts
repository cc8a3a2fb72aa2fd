import type { FastifyRequest } from 'fastify';
import { gatewayError } from '../errors.js';
import { adapters } from '../providers/adapters.js';
import type { UpstreamOperation } from '../providers/provider-types.js';
import type { Attempt } from '../routing/execute-plan.js';
import type { TargetNode } from '../routing/routing-config.js';
import { retryAfterMsOf } from '../routing/throttle-gate.js';
import { selectionFor, type ResolvedRoute, type Selection } from '../routing/resolve-route.js';
import { assertServableModel } from '../routing/model-naming.js';
import { pickTranslator } from '../providers/translate/index.js';
import type { Lane } from '../providers/translate/lane.js';
import { upstreamHeaders } from '../providers/upstream/header-policy.js';
import { UpstreamUnreachable, type UpstreamResponse } from '../providers/upstream/upstream-client.js';
import type { InferenceDeps } from './inference-deps.js';
import { prepareUpstreamBody, type PreparedBody } from './prepare-body.js';
import type { InferenceCall } from './run-inference.js';

/** What one try produced: an upstream answer to relay, or why there is none. */
export type AttemptResult =
  | { kind: 'response'; selection: Selection; lane: Lane; prepared: PreparedBody; response: UpstreamResponse; sentAt: number }
  | { kind: 'unreachable'; selection: Selection }
  | { kind: 'throttled'; selection: Selection; retryAfterMs: number };

export interface AttemptScope {
  deps: InferenceDeps;
  call: InferenceCall;
  route: ResolvedRoute;
  request: FastifyRequest;
  signal: AbortSignal;
  onAttempt(selection: Selection, status: number | null): void;
  /** The request is going to this target now (after any throttle wait): the provider will see the prompt. */
  onSend?(selection: Selection): void;
}

/** One try against one target: pick the lane, prepare the body, honour the seat's throttle pause, send. */
export async function attemptTarget(scope: AttemptScope, target: TargetNode): Promise<Attempt<AttemptResult>> {
  const { deps, call, request } = scope;
  const selection = selectionFor(target, scope.route, deps.providers);
  const provider = selection.provider;
  assertServableModel(provider, selection.model, deps.routing.documents.models);
  if (call.requiresFamily && provider.family !== call.requiresFamily) {
    throw gatewayError('unsupported_by_provider', `Provider "${provider.slug}" (${provider.type}) does not serve ${call.endpoint}.`);
  }
  const record = (status: number | null) => scope.onAttempt(selection, status);
  const refused = await passThrottle(deps, provider.slug, selection, record);
  if (refused) return refused;
  const lane = pickTranslator(call.clientFormat, provider.family);
  const prepared = prepareUpstreamBody({ call, selection, lane, rawBody: call.rawBody === undefined ? request.rawBody : call.rawBody, modelFacts: deps.routing.documents.models });
  // A translated call is the backend family's own operation: chat sent to an Anthropic provider is a Messages call.
  const operation: UpstreamOperation = lane.kind === 'translate' ? { kind: provider.family === 'anthropic' ? 'messages' : 'chat' } : call.operation;
  const upstreamTarget = adapters[provider.type].target(provider, operation, selection.model);
  const headers = upstreamHeaders(request.headers, provider.family, upstreamTarget.headers, lane.kind === 'translate');
  scope.onSend?.(selection);
  return sendPrepared(deps, { selection, lane, prepared, url: upstreamTarget.url, headers, seat: provider.slug, signal: scope.signal, record });
}

/**
 * The seat's throttle pause (spec 000 §1.12): a pause longer than the allowed wait becomes a synthetic 429 try (so a
 * fallback can move on); a shorter one is waited out here. Null means go ahead.
 */
export async function passThrottle(deps: InferenceDeps, seat: string, selection: Selection, record: (status: number | null) => void): Promise<Attempt<AttemptResult> | null> {
  const gate = await deps.throttle.check(seat);
  if (gate.kind === 'refuse') {
    record(429);
    return { status: 429, retryAfterMs: gate.retryAfterMs, result: { kind: 'throttled', selection, retryAfterMs: gate.retryAfterMs }, discard: async () => undefined };
  }
  if (gate.kind === 'wait') await deps.sleep(gate.waitMs);
  return null;
}

/** Send one prepared body and classify the answer; a provider 429 pauses the seat on every replica. */
export async function sendPrepared(
  deps: InferenceDeps,
  input: { selection: Selection; lane: Lane; prepared: PreparedBody; url: string; headers: Record<string, string>; seat: string; signal: AbortSignal; record: (status: number | null) => void },
): Promise<Attempt<AttemptResult>> {
  const { selection, lane, prepared } = input;
  const sentAt = deps.clock.now();
  try {
    const response = await deps.upstream.send({ url: input.url, method: 'POST', headers: input.headers, body: prepared.body, signal: input.signal });
    const retryAfterMs = retryAfterMsOf(response.headers, deps.clock.now());
    if (response.status === 429) await deps.throttle.throttled(input.seat, retryAfterMs);
    input.record(response.status);
    return { status: response.status, retryAfterMs, result: { kind: 'response', selection, lane, prepared, response, sentAt }, discard: () => response.body.dump() };
  } catch (error) {
    if (!(error instanceof UpstreamUnreachable)) throw error;
    input.record(null);
    return { status: null, retryAfterMs: null, result: { kind: 'unreachable', selection }, discard: async () => undefined };
  }
}
