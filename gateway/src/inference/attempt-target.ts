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
import { abortCauseOf, abortedCallError } from './call-signal.js';
import type { InferenceCall } from './inference-call.js';

/** What one try produced: an upstream answer to relay, or why there is none. */
export type AttemptResult =
  | {
      kind: 'response';
      selection: Selection;
      lane: Lane;
      prepared: PreparedBody;
      response: UpstreamResponse;
      sentAt: number;
    }
  | { kind: 'unreachable'; selection: Selection }
  | { kind: 'throttled'; selection: Selection; retryAfterMs: number };

export interface AttemptScope {
  deps: Pick<InferenceDeps, 'clock' | 'providers' | 'routing' | 'sleep' | 'throttle' | 'upstream'>;
  call: InferenceCall;
  route: ResolvedRoute;
  request: FastifyRequest;
  signal: AbortSignal;
  onAttempt(selection: Selection, status: number | null): void;
  /** The request is going to this target now (after any throttle wait): the provider will see the prompt. */
  onSend?: (selection: Selection, at: number) => void;
}

/** One try against one target: pick the lane, prepare the body, honour the seat's throttle pause, send. */
export async function attemptTarget(scope: AttemptScope, target: TargetNode): Promise<Attempt<AttemptResult>> {
  const { deps, call, request } = scope;
  const selection = selectionFor(target, scope.route, deps.providers);
  const provider = selection.provider;
  assertServableModel(provider, selection.model, deps.routing.documents.models);
  if (call.requiresFamily && provider.family !== call.requiresFamily) {
    throw gatewayError(
      'unsupported_by_provider',
      `Provider "${provider.slug}" (${provider.type}) does not serve ${call.endpoint}.`,
    );
  }
  const record = (status: number | null) => scope.onAttempt(selection, status);
  const refused = await passThrottle(deps, provider.slug, selection, record);
  if (refused) return refused;
  const lane = pickTranslator(call.clientFormat, provider.family);
  const prepared = prepareUpstreamBody({
    call,
    selection,
    lane,
    rawBody: call.rawBody === undefined ? request.rawBody : call.rawBody,
    modelFacts: deps.routing.documents.models,
  });
  // A translated call is the backend family's own operation: chat sent to an Anthropic provider is a Messages call.
  const operation: UpstreamOperation =
    lane.kind === 'translate' ? { kind: provider.family === 'anthropic' ? 'messages' : 'chat' } : call.operation;
  const upstreamTarget = adapters[provider.type].target(provider, operation, selection.model);
  const headers = upstreamHeaders(request.headers, provider.family, upstreamTarget.headers, lane.kind === 'translate');
  return sendThroughThrottle(deps, {
    selection,
    lane,
    prepared,
    url: upstreamTarget.url,
    headers,
    seat: provider.slug,
    signal: scope.signal,
    record,
    ...(scope.onSend ? { onSend: scope.onSend } : {}),
  });
}

/**
 * The seat's throttle pause: a pause longer than the allowed wait becomes a synthetic 429 try (so a
 * fallback can move on); a shorter one is waited out here, unless the caller has somewhere else to go at once
 * (`wait: false`: a seat with overflow on). Null means go ahead.
 */
export async function passThrottle(
  deps: Pick<InferenceDeps, 'sleep' | 'throttle'>,
  seat: string,
  selection: Selection,
  record: (status: number | null) => void,
  options: { wait: boolean } = { wait: true },
): Promise<Attempt<AttemptResult> | null> {
  const gate = deps.throttle.check(seat);
  if (gate.kind === 'go') return null;
  const pauseMs = gate.kind === 'refuse' ? gate.retryAfterMs : gate.waitMs;
  if (gate.kind === 'refuse' || !options.wait) {
    record(429);
    return {
      status: 429,
      retryAfterMs: pauseMs,
      result: { kind: 'throttled', selection, retryAfterMs: pauseMs },
      discard: async () => undefined,
    };
  }
  await deps.sleep(pauseMs);
  return null;
}

/** What `sendPrepared` needs: the prepared body, where it goes, and the seat whose throttle pause it shares. */
export interface PreparedSend {
  selection: Selection;
  lane: Lane;
  prepared: PreparedBody;
  url: string;
  headers: Record<string, string>;
  seat: string;
  signal: AbortSignal;
  record: (status: number | null) => void;
  /** Told each time the body goes upstream (the metering stage's "last send"). */
  onSend?: AttemptScope['onSend'];
}

/**
 * Send, and when the provider answers 429 with a pause that fits `GW_ANTHROPIC_THROTTLE_WAIT_MS`, wait it out here
 * and send once more: a short throttle never reaches the client (`../routing/README.md`). The pause is shared with the
 * other replicas through the throttle gate, so their requests to the seat wait too. `wait: false` relays the 429 at
 * once, for a caller that overflows elsewhere.
 */
export async function sendThroughThrottle(
  deps: Pick<InferenceDeps, 'clock' | 'sleep' | 'throttle' | 'upstream'>,
  input: PreparedSend,
  options: { wait: boolean } = { wait: true },
): Promise<Attempt<AttemptResult>> {
  const first = await sendPrepared(deps, input);
  const pause = first.status === 429 ? first.retryAfterMs : null;
  if (!options.wait || pause === null || pause <= 0 || pause > deps.throttle.maxWaitMs) return first;
  await first.discard();
  await deps.sleep(pause);
  return sendPrepared(deps, input);
}

/** Send one prepared body and classify the answer; a provider 429 pauses the seat on every replica. */
export async function sendPrepared(
  deps: Pick<InferenceDeps, 'clock' | 'throttle' | 'upstream'>,
  input: PreparedSend,
): Promise<Attempt<AttemptResult>> {
  const { selection, lane, prepared } = input;
  // A call the client left (or the drain deadline ended) while it waited is not sent: the provider never sees it.
  const cause = abortCauseOf(input.signal);
  if (cause) throw abortedCallError(cause);
  const sentAt = deps.clock.now();
  input.onSend?.(selection, sentAt);
  try {
    const response = await deps.upstream.send({
      url: input.url,
      method: 'POST',
      headers: input.headers,
      body: prepared.body,
      signal: input.signal,
    });
    const retryAfterMs = retryAfterMsOf(response.headers, deps.clock.now());
    if (response.status === 429) deps.throttle.throttled(input.seat, retryAfterMs);
    input.record(response.status);
    return {
      status: response.status,
      retryAfterMs,
      result: { kind: 'response', selection, lane, prepared, response, sentAt },
      discard: () => response.body.dump(),
    };
  } catch (error) {
    if (!(error instanceof UpstreamUnreachable)) throw error;
    input.record(null);
    return {
      status: null,
      retryAfterMs: null,
      result: { kind: 'unreachable', selection },
      discard: async () => undefined,
    };
  }
}
