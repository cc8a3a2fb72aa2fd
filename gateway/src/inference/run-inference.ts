import { randomUUID } from 'node:crypto';
import { firstHeader } from '../shared/first-header.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, normalizeRequestError } from '@gw/platform';
import type { UpstreamOperation } from '../providers/provider-types.js';
import { conversationKey } from '../routing/conversation-key.js';
import { executePlan } from '../routing/execute-plan.js';
import type { RoutingNode } from '../routing/routing-config.js';
import { firstTarget, resolveRoute, type ResolvedRoute } from '../routing/resolve-route.js';
import type { Lane } from '../providers/translate/lane.js';
import { TranslationError } from '../providers/translate/translation-error.js';
import { isPlainObject, parseJson } from '../providers/translate/parse-wire.js';
import type { TranslationContext } from '../providers/translate/translator.js';
import { maxRetryAfterSeconds, upstreamSourceHeaders } from '../providers/upstream/header-policy.js';
import type { UpstreamResponse } from '../providers/upstream/upstream-client.js';
import { attemptTarget, type AttemptResult } from './attempt-target.js';
import { abortCauseOf, abortedCallError, callSignal, statusOfCutStream, type AbortCause } from './call-signal.js';
import { optimizeCall } from './optimize-call.js';
import { gatewaySessionIdOf } from '../optimization/hook/pre-call-hook.js';
import { runPostCall, writeStreamShadow, type PostCallInput } from '../optimization/hook/post-call.js';
import { ChatStreamReassembler, MessagesStreamReassembler } from '../optimization/hook/stream-reassembly.js';
import { serializeSseFrame, type SseFrame } from '../providers/translate/sse.js';
import { answerAsStream } from '../providers/translate/answer-as-stream.js';
import type { InferenceDeps } from './inference-deps.js';
import { relayStream } from './relay-stream.js';
import { readBounded } from './upstream-body.js';
import { framingEvents, usageOfCutStream } from './cut-stream-usage.js';
import { buildSpendRecord, type CallOutcome } from './spend-from-call.js';
import { readingUpstream, relayUpstreamError, upstreamUnreachableError } from './upstream-error.js';
import { logStreamEnd, openEventStream } from './event-stream-response.js';
import { recordSpend } from '../metering/record-spend.js';

export type ClientFormat = 'chat-completions' | 'messages';

/** What a route hands to the pipeline. */
export interface InferenceCall {
  /** Stored endpoint name (`/v1/chat/completions`). */
  endpoint: string;
  operation: UpstreamOperation;
  /** Lane selection: chat and Messages translate across families; other operations require a matching family. */
  clientFormat: ClientFormat;
  /** Operations only an OpenAI-family provider serves (completions, embeddings). */
  requiresFamily?: 'openai';
  body: Record<string, unknown> | undefined;
  /** The client's bytes for same-family forwarding; null when the route rewrote the body (seat lane envelopes). */
  rawBody?: Buffer | null;
  /** A subscription seat (spec 000 §4.1 seat lane), for metering and the optimizer lane. */
  seat?: boolean;
}

// A retry waits at most this long server-side, whatever the provider asks.
const maxRetryWaitMs = 30_000;
function balances(node: RoutingNode): boolean {
  return node.kind === 'group' && (node.mode === 'loadbalance' || node.targets.some(balances));
}

/**
 * The handler stage for named inference operations: resolve the route (spec 000 §1.2), run its plan (fallback,
 * sticky load balancing, per-target retry), relay the final answer (same family byte-faithful, crossing translated)
 * and record exactly one spend row naming the target that answered.
 */
export async function runInference(deps: InferenceDeps, call: InferenceCall, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const outcome: CallOutcome = { status: 500, selection: null, usage: undefined, upstreamMs: null, errorCode: null, stream: call.body?.stream === true, firstByteMs: null, attempts: 0 };
  let sent = call;
  let signal: AbortSignal | null = null;
  // The target a request last went to: a call cut before the answer still cost that provider the prompt.
  let sentTo: AttemptResult['selection'] | null = null;
  try {
    const model = call.body?.model;
    if (typeof model !== 'string' || model.length === 0) throw new AppError({ status: 400, code: 'invalid_request', message: 'body.model: a model id or alias is required' });
    const route = resolveRoute({ headerProvider: firstHeader(request, 'x-gw-provider'), configHeader: firstHeader(request, 'x-gw-config'), model }, deps.providers, deps.routing);
    const identity = request.gw.identity;
    // The conversation key drives sticky load balancing and the optimizer's session; skip the hashing when neither applies.
    const needsConversation = deps.optimizer !== null || balances(route.plan);
    const sticky = needsConversation ? conversationKey({ sessionHeader: firstHeader(request, 'x-gw-session-id'), metadata: identity?.metadata ?? {}, body: call.body, caller: identity?.user ?? identity?.keyId ?? 'anonymous' }) : null;
    outcome.sessionId = gatewaySessionIdOf(sticky);
    const firstProvider = deps.providers.get(firstTarget(route.plan).provider);
    const optimized = await optimizeCall(deps, call, request, { model: route.model, family: firstProvider?.family ?? 'openai', subscription: false }, sticky);
    sent = optimized.call;
    outcome.optimization = optimized.optimization;
    reply.header('x-gw-optimization', optimized.optimization.status);
    if (optimized.optimization.cache.hit) return serveCacheHit(optimized.optimization.cache.hit, route, outcome, reply);
    const scope = {
      deps,
      call: sent,
      route,
      request,
      signal: (signal = callSignal(reply, deps.shutdown)),
      onAttempt: (selection: { provider: { slug: string } }, status: number | null) => deps.attemptMetrics.record(selection.provider.slug, status),
      onSend: (selection: AttemptResult['selection']) => (sentTo = selection),
    };
    const execution = await executePlan(route.plan, (target) => attemptTarget(scope, target), { conversationKey: sticky, random: deps.random, sleep: deps.sleep, maxRetryWaitMs });
    const result = execution.attempt.result;
    outcome.selection = result.selection;
    outcome.attempts = execution.attempts;
    reply.header('x-gw-provider', result.selection.provider.slug).header('x-gw-target', `${result.selection.provider.slug}/${result.selection.model}`).header('x-gw-attempts', String(execution.attempts));
    return await relay(deps, sent, result, outcome, reply, request, signal);
  } catch (thrown) {
    throw failedCall(thrown, { cause: signal ? abortCauseOf(signal) : null, sentTo, body: sent.body, outcome });
  } finally {
    recordSpend(deps.spend, request, buildSpendRecord({ request, call: sent, outcome, now: deps.clock.now(), id: randomUUID(), modelFacts: deps.routing.documents.models }));
  }
}

/**
 * What a failed call answers, and records in `outcome`. A call the client or the drain deadline cut short says so,
 * whatever the cut looked like from inside; one cut after the request had gone to a provider carries the prompt
 * estimate (the provider had it). A provider answer the translator cannot read is the provider's fault (502, marked
 * upstream), not the client's.
 */
function failedCall(thrown: unknown, context: { cause: AbortCause | null; sentTo: AttemptResult['selection'] | null; body: InferenceCall['body']; outcome: CallOutcome }): unknown {
  const { cause, sentTo, outcome } = context;
  if (cause && sentTo && outcome.usage === undefined) {
    outcome.selection ??= sentTo;
    outcome.usage = usageOfCutStream(undefined, context.body, 0);
    outcome.usageEstimated = true;
  }
  const { error } = normalizeRequestError(cause ? abortedCallError(cause) : thrown);
  outcome.errorCode = error instanceof AppError || error instanceof TranslationError ? error.code : 'internal_error';
  outcome.status = error instanceof AppError || error instanceof TranslationError ? error.status : 500;
  if (error instanceof TranslationError) return new AppError({ status: error.status, code: error.code, message: error.message, ...(error.status >= 500 ? { headers: upstreamSourceHeaders() } : {}) });
  return error;
}

/** A semantic-cache hit is served directly: no provider call, no provider cost (spec 000 §1.6e). */
function serveCacheHit(hit: Record<string, unknown>, route: ResolvedRoute, outcome: CallOutcome, reply: FastifyReply): FastifyReply {
  outcome.status = 200;
  outcome.stream = false;
  outcome.attempts = 0;
  reply.header('x-gw-cache', 'hit').header('x-gw-target', `cache/${route.model}`);
  return reply.code(200).header('content-type', 'application/json').send(JSON.stringify(hit));
}

/** Relay the final attempt's answer (or why there is none) to the client. */
export async function relay(deps: InferenceDeps, call: InferenceCall, result: AttemptResult, outcome: CallOutcome, reply: FastifyReply, request: FastifyRequest, signal: AbortSignal): Promise<FastifyReply> {
  const slug = result.selection.provider.slug;
  if (result.kind === 'unreachable') {
    throw upstreamUnreachableError(slug);
  }
  if (result.kind === 'throttled') {
    const seconds = Math.min(Math.ceil(result.retryAfterMs / 1000), maxRetryAfterSeconds);
    throw new AppError({ status: 429, code: 'upstream_throttled', message: `Provider "${slug}" is rate limiting this seat; retry after ${seconds} s.`, retryable: true, headers: { 'retry-after': String(seconds), 'x-gw-upstream-provider': slug } });
  }
  const { response, lane, prepared } = result;
  outcome.firstByteMs = deps.clock.now() - result.sentAt;
  try {
    if (response.status >= 400 || response.status < 200) return await relayError(response, result, call, outcome, reply);
    if (outcome.stream && String(response.headers['content-type'] ?? '').includes('text/event-stream')) {
      return await relayStreamed(deps, { response, lane, context: prepared.context, hideUsageChunk: prepared.hideUsageChunk, signal }, call, outcome, reply, postCallInput(call, outcome, request));
    }
    return await relayJson(deps, result, call, outcome, reply, postCallInput(call, outcome, request));
  } finally {
    outcome.upstreamMs = deps.clock.now() - result.sentAt;
  }
}

async function relayError(response: UpstreamResponse, result: Extract<AttemptResult, { kind: 'response' }>, call: InferenceCall, outcome: CallOutcome, reply: FastifyReply) {
  const relayed = relayUpstreamError({ status: response.status, text: (await readingUpstream(result.selection.provider.slug, readBounded(response.body))).toString('utf8'), upstreamHeaders: response.headers, slug: result.selection.provider.slug, lane: result.lane, messagesClient: call.clientFormat === 'messages' });
  outcome.status = relayed.status;
  outcome.errorCode = relayed.errorType ?? `upstream_${relayed.status}`;
  outcome.stream = false;
  return reply.code(relayed.status).headers(relayed.headers).send(relayed.body);
}

function postCallInput(call: InferenceCall, outcome: CallOutcome, request: FastifyRequest): Omit<PostCallInput, 'response'> {
  const identity = request.gw.identity;
  return { endpoint: call.endpoint, optimization: outcome.optimization, request: call.body, metadata: identity?.metadata ?? {}, user: identity?.user ?? null, team: identity?.team ?? null, sessionId: outcome.sessionId ?? null };
}

/** An error envelope (OpenAI `{error}`, Anthropic `{type: "error", error}`) rather than an answer. */
function isErrorEnvelope(parsed: unknown): boolean {
  return isPlainObject(parsed) && isPlainObject(parsed.error) && !('choices' in parsed) && !('content' in parsed) && !('data' in parsed);
}

async function relayJson(deps: InferenceDeps, result: Extract<AttemptResult, { kind: 'response' }>, call: InferenceCall, outcome: CallOutcome, reply: FastifyReply, postCall: Omit<PostCallInput, 'response'>) {
  const { response, lane } = result;
  const context = result.prepared.context;
  const raw = Buffer.from(await readingUpstream(result.selection.provider.slug, response.body.arrayBuffer()));
  // A stream the provider answered with one JSON body is re-told as the stream the client asked for.
  const streamAsked = outcome.stream && (call.operation.kind === 'chat' || call.operation.kind === 'messages');
  outcome.stream = false;
  const parsed = parseJson(raw.toString('utf8'));
  if (isErrorEnvelope(parsed)) {
    // An error answered with a success status (compatible servers, proxies) is still the provider failing: relayed
    // as its error with 502 and the status it really sent, never as a 200 (or, once translated, a 400).
    const relayed = relayUpstreamError({ status: 502, text: raw.toString('utf8'), upstreamHeaders: response.headers, slug: result.selection.provider.slug, lane, messagesClient: call.clientFormat === 'messages' });
    outcome.status = 502;
    outcome.errorCode = relayed.errorType ?? 'upstream_error';
    return reply.code(502).headers({ ...relayed.headers, 'x-gw-upstream-status': String(response.status) }).send(relayed.body);
  }
  outcome.status = response.status;
  if (lane.kind === 'translate') {
    if (parsed === undefined) throw new AppError({ status: 502, code: 'invalid_upstream_response', message: 'The provider answered with a body that is not JSON.', headers: upstreamSourceHeaders() });
    const translated = lane.translateResponse(parsed, context, { clock: deps.clock });
    outcome.usage = translated.usage;
    const answer = (await runPostCall(deps.optimizer, deps.logger, { ...postCall, response: translated.body as Record<string, unknown> })) ?? (translated.body as Record<string, unknown>);
    if (streamAsked && response.status < 300) return sendAsStream(reply, call, answer, outcome);
    return reply.code(response.status).header('content-type', 'application/json').send(JSON.stringify(answer));
  }
  outcome.usage = parsed === undefined ? undefined : lane.extractUsage(parsed);
  // A stream the provider answered with something that is not an answer (HTML, `{}`) cannot be re-told as one.
  if (streamAsked && response.status < 300 && !isAnswerOf(call.clientFormat, parsed)) {
    throw new AppError({ status: 502, code: 'invalid_upstream_response', message: 'The provider answered a stream request with a body that is neither a stream nor an answer.', headers: upstreamSourceHeaders(result.selection.provider.slug, response.status) });
  }
  const answered = isPlainObject(parsed) && response.status < 300;
  const rewritten = answered ? await runPostCall(deps.optimizer, deps.logger, { ...postCall, response: parsed }) : null;
  if (streamAsked && answered) return sendAsStream(reply, call, rewritten ?? parsed, outcome);
  if (rewritten) return reply.code(response.status).header('content-type', 'application/json').send(JSON.stringify(rewritten));
  return reply.code(response.status).header('content-type', String(response.headers['content-type'] ?? 'application/json')).send(raw);
}

/** The least a whole answer has: a chat completion's `choices`, a Messages answer's `content`. */
function isAnswerOf(clientFormat: ClientFormat, parsed: unknown): boolean {
  return isPlainObject(parsed) && Array.isArray(clientFormat === 'messages' ? parsed.content : parsed.choices);
}

function sendAsStream(reply: FastifyReply, call: InferenceCall, answer: Record<string, unknown>, outcome: CallOutcome): FastifyReply {
  const streamOptions = call.body?.stream_options;
  const frames = answerAsStream(call.clientFormat, answer, { includeUsage: isPlainObject(streamOptions) && streamOptions.include_usage === true });
  openEventStream(reply).end(frames.map(serializeSseFrame).join(''));
  outcome.stream = true;
  logStreamEnd(reply, { completed: true, errorCode: null });
  return reply;
}

/** The upstream side of a stream to relay: the answer, its lane, and the call's signal. */
interface StreamSource {
  response: UpstreamResponse;
  lane: Lane;
  context: TranslationContext;
  hideUsageChunk: boolean;
  signal: AbortSignal;
}

async function relayStreamed(deps: InferenceDeps, source: StreamSource, call: InferenceCall, outcome: CallOutcome, reply: FastifyReply, postCall: Omit<PostCallInput, 'response'>) {
  const out = openEventStream(reply);
  // A cache-eligible stream is reassembled (only then: it costs a decode per frame) for the shadow tier.
  const reassembler = outcome.optimization?.cache.eligible ? (call.clientFormat === 'messages' ? new MessagesStreamReassembler() : new ChatStreamReassembler()) : null;
  const result = await relayStream({
    upstream: source.response.body as AsyncIterable<Buffer>,
    out,
    lane: source.lane,
    clientFormat: call.clientFormat,
    context: source.context,
    hideUsageChunk: source.hideUsageChunk,
    signal: source.signal,
    now: () => deps.clock.now(),
    ...(reassembler ? { onClientFrame: (frame: SseFrame) => reassembler.push(frame) } : {}),
  });
  if (!out.writableEnded) out.end();
  logStreamEnd(reply, result);
  const reassembled = result.completed ? reassembler?.result() : null;
  if (reassembled) writeStreamShadow(deps.optimizer, deps.logger, { ...postCall, response: reassembled });
  // A stream cut before the provider reported its usage is billed anyway: record the estimate, flagged as one.
  outcome.usage = result.usage;
  if (!result.completed) {
    outcome.usage = usageOfCutStream(result.usage, call.body, Math.max(result.eventsSent - framingEvents[call.clientFormat], 0));
    outcome.usageEstimated = true;
  }
  outcome.firstByteMs = result.firstByteMs === null ? null : (outcome.firstByteMs ?? 0) + result.firstByteMs;
  outcome.status = result.completed ? 200 : statusOfCutStream(result.errorCode);
  outcome.errorCode = result.errorCode;
  return reply;
}
