import type { FastifyReply, FastifyRequest } from 'fastify';
import { isPlainObject, parseJson } from '../providers/translate/parse-wire.js';
import { serializeSseFrame, type SseFrame } from '../providers/translate/sse.js';
import { answerAsStream } from '../providers/translate/answer-as-stream.js';
import { maxRetryAfterSeconds, upstreamSourceHeaders } from '../providers/upstream/header-policy.js';
import type { Optimization } from '../optimization/hook/pre-call-hook.js';
import { runPostCall, writeStreamShadow, type PostCallInput } from '../optimization/hook/post-call.js';
import { ChatStreamReassembler, MessagesStreamReassembler } from '../optimization/hook/stream-reassembly.js';
import type { AttemptResult } from './attempt-target.js';
import { statusOfCutStream } from './call-signal.js';
import { framingEvents, usageOfCutStream } from './cut-stream-usage.js';
import { logStreamEnd, openEventStream } from './event-stream-response.js';
import type { InferenceDeps } from './inference-deps.js';
import type { Relayed } from './lane-report.js';
import { relayStream } from './relay-stream.js';
import type { ClientFormat, InferenceCall } from './inference-call.js';
import { readBounded } from './upstream-body.js';
import { readingUpstream, relayUpstreamError, upstreamUnreachableError } from './upstream-error.js';
import { gatewayError } from '../errors.js';

type Answered = Extract<AttemptResult, { kind: 'response' }>;

/** Everything `relayAnswer` needs, by name. */
export interface RelayOptions {
  deps: Pick<InferenceDeps, 'clock' | 'logger' | 'meter' | 'optimizer'>;
  /** The call as sent (after the optimizer). */
  call: InferenceCall;
  /** The final attempt of the routing plan. */
  result: AttemptResult;
  reply: FastifyReply;
  request: FastifyRequest;
  signal: AbortSignal;
  /** The pre-call hook's outcome: the post-call hook and the cache's shadow tier read it. */
  optimization: Optimization | undefined;
  /** The sticky conversation key, when one was derived. */
  sessionId: string | null;
}

/** A relayed answer that went out as one body. */
const whole = (status: number, errorCode: string | null, usage: Relayed['usage'] = undefined): Relayed => ({
  status,
  errorCode,
  usage,
  usageEstimated: false,
  stream: false,
  firstByteMs: null,
});

/**
 * Relay the final attempt's answer (or why there is none) to the client, and say what went out: the status, the
 * provider's usage (or the estimate of a stream cut short), whether it streamed and when the first byte left.
 */
export async function relayAnswer(options: RelayOptions): Promise<Relayed> {
  const { deps, result } = options;
  const slug = result.selection.provider.slug;
  if (result.kind === 'unreachable') throw upstreamUnreachableError(slug);
  if (result.kind === 'throttled') {
    const seconds = Math.min(Math.ceil(result.retryAfterMs / 1000), maxRetryAfterSeconds);
    throw gatewayError(
      'upstream_throttled',
      `Provider "${slug}" is rate limiting this seat; retry after ${seconds} s.`,
      {
        headers: { 'retry-after': String(seconds), 'x-gw-upstream-provider': slug },
      },
    );
  }
  const headersAfterMs = deps.clock.now() - result.sentAt;
  const { response } = result;
  if (response.status >= 400 || response.status < 200) return relayError(options, result);
  if (
    options.call.body?.stream === true &&
    String(response.headers['content-type'] ?? '').includes('text/event-stream')
  )
    return relayStreamed(options, result, headersAfterMs);
  const relayed = await relayJson(options, result);
  // An answer re-told as a stream reached the client whole, as soon as the provider's headers did.
  return relayed.stream ? { ...relayed, firstByteMs: headersAfterMs } : relayed;
}

async function relayError(options: RelayOptions, result: Answered): Promise<Relayed> {
  const { response } = result;
  const slug = result.selection.provider.slug;
  const relayed = relayUpstreamError({
    status: response.status,
    text: (await readingUpstream(slug, readBounded(response.body))).toString('utf8'),
    upstreamHeaders: response.headers,
    slug,
    lane: result.lane,
    messagesClient: options.call.clientFormat === 'messages',
  });
  options.reply.code(relayed.status).headers(relayed.headers).send(relayed.body);
  return whole(relayed.status, relayed.errorType ?? `upstream_${relayed.status}`);
}

function postCallInput(options: RelayOptions): Omit<PostCallInput, 'response'> {
  const identity = options.request.gw.identity;
  const { call } = options;
  return {
    endpoint: call.endpoint,
    optimization: options.optimization,
    request: call.body,
    metadata: identity?.metadata ?? {},
    user: identity?.user ?? null,
    team: identity?.team ?? null,
    sessionId: options.sessionId,
  };
}

/** An error envelope (OpenAI `{error}`, Anthropic `{type: "error", error}`) rather than an answer. */
function isErrorEnvelope(parsed: unknown): boolean {
  return (
    isPlainObject(parsed) &&
    isPlainObject(parsed.error) &&
    !('choices' in parsed) &&
    !('content' in parsed) &&
    !('data' in parsed)
  );
}

async function relayJson(options: RelayOptions, result: Answered): Promise<Relayed> {
  const { deps, call, reply } = options;
  const { response, lane } = result;
  const slug = result.selection.provider.slug;
  const raw = Buffer.from(await readingUpstream(slug, response.body.arrayBuffer()));
  // A stream the provider answered with one JSON body is re-told as the stream the client asked for.
  const streamAsked =
    call.body?.stream === true && (call.operation.kind === 'chat' || call.operation.kind === 'messages');
  const parsed = parseJson(raw.toString('utf8'));
  if (isErrorEnvelope(parsed)) {
    // An error answered with a success status (compatible servers, proxies) is still the provider failing: relayed
    // as its error with 502 and the status it really sent, never as a 200 (or, once translated, a 400).
    const relayed = relayUpstreamError({
      status: 502,
      text: raw.toString('utf8'),
      upstreamHeaders: response.headers,
      slug,
      lane,
      messagesClient: call.clientFormat === 'messages',
    });
    reply
      .code(502)
      .headers({ ...relayed.headers, 'x-gw-upstream-status': String(response.status) })
      .send(relayed.body);
    return whole(502, relayed.errorType ?? 'upstream_error');
  }
  const postCall = postCallInput(options);
  if (lane.kind === 'translate') {
    if (parsed === undefined)
      throw gatewayError('invalid_upstream_response', 'The provider answered with a body that is not JSON.', {
        headers: upstreamSourceHeaders(),
      });
    const translated = lane.translateResponse(parsed, result.prepared.context, { clock: deps.clock });
    const answer =
      (await runPostCall(deps.optimizer, deps.logger, {
        ...postCall,
        response: translated.body as Record<string, unknown>,
      })) ?? (translated.body as Record<string, unknown>);
    if (streamAsked && response.status < 300)
      return sendAsStream(reply, call, answer, whole(response.status, null, translated.usage));
    reply.code(response.status).header('content-type', 'application/json').send(JSON.stringify(answer));
    return { ...whole(response.status, null, translated.usage), answer };
  }
  const usage = parsed === undefined ? undefined : lane.extractUsage(parsed);
  // A stream the provider answered with something that is not an answer (HTML, `{}`) cannot be re-told as one.
  if (streamAsked && response.status < 300 && !isAnswerOf(call.clientFormat, parsed)) {
    throw gatewayError(
      'invalid_upstream_response',
      'The provider answered a stream request with a body that is neither a stream nor an answer.',
      { headers: upstreamSourceHeaders(slug, response.status) },
    );
  }
  const answered = isPlainObject(parsed) && response.status < 300;
  const rewritten = answered ? await runPostCall(deps.optimizer, deps.logger, { ...postCall, response: parsed }) : null;
  if (streamAsked && answered)
    return sendAsStream(reply, call, rewritten ?? parsed, whole(response.status, null, usage));
  if (rewritten) reply.code(response.status).header('content-type', 'application/json').send(JSON.stringify(rewritten));
  else
    reply
      .code(response.status)
      .header('content-type', String(response.headers['content-type'] ?? 'application/json'))
      .send(raw);
  return { ...whole(response.status, null, usage), answer: rewritten ?? parsed };
}

/** The least a whole answer has: a chat completion's `choices`, a Messages answer's `content`. */
function isAnswerOf(clientFormat: ClientFormat, parsed: unknown): boolean {
  return isPlainObject(parsed) && Array.isArray(clientFormat === 'messages' ? parsed.content : parsed.choices);
}

function sendAsStream(
  reply: FastifyReply,
  call: InferenceCall,
  answer: Record<string, unknown>,
  relayed: Relayed,
): Relayed {
  const streamOptions = call.body?.stream_options;
  const frames = answerAsStream(call.clientFormat, answer, {
    includeUsage: isPlainObject(streamOptions) && streamOptions.include_usage === true,
  });
  const payload = frames.map(serializeSseFrame).join('');
  openEventStream(reply, { 'content-length': String(Buffer.byteLength(payload)) }).end(payload);
  logStreamEnd(reply, { completed: true, errorCode: null });
  return { ...relayed, stream: true, answer };
}

async function relayStreamed(options: RelayOptions, result: Answered, headersAfterMs: number): Promise<Relayed> {
  const { deps, call, reply } = options;
  const out = openEventStream(reply);
  // A stream is reassembled only when something reads the whole answer (it costs a decode per frame): the cache's
  // shadow tier for a cache-eligible call, the trace's content while the content mode keeps it.
  const cacheEligible = options.optimization?.cache.eligible === true;
  const reassembler =
    cacheEligible || deps.meter.keepsContent()
      ? call.clientFormat === 'messages'
        ? new MessagesStreamReassembler()
        : new ChatStreamReassembler()
      : null;
  const streamed = await relayStream({
    upstream: result.response.body as AsyncIterable<Buffer>,
    out,
    lane: result.lane,
    clientFormat: call.clientFormat,
    context: result.prepared.context,
    hideUsageChunk: result.prepared.hideUsageChunk,
    signal: options.signal,
    now: () => deps.clock.now(),
    ...(reassembler ? { onClientFrame: (frame: SseFrame) => reassembler.push(frame) } : {}),
  });
  if (!out.writableEnded) out.end();
  logStreamEnd(reply, streamed);
  const reassembled = streamed.completed ? reassembler?.result() : null;
  if (reassembled && cacheEligible)
    writeStreamShadow(deps.optimizer, deps.logger, { ...postCallInput(options), response: reassembled });
  const firstByteMs = streamed.firstByteMs === null ? null : headersAfterMs + streamed.firstByteMs;
  if (streamed.completed)
    return {
      status: 200,
      errorCode: streamed.errorCode,
      usage: streamed.usage,
      usageEstimated: false,
      stream: true,
      firstByteMs,
      ...(reassembled ? { answer: reassembled } : {}),
    };
  // A stream cut before the provider reported its usage is billed anyway: record the estimate, flagged as one.
  const usage = usageOfCutStream(
    streamed.usage,
    call.body,
    Math.max(streamed.eventsSent - framingEvents[call.clientFormat], 0),
  );
  return {
    status: statusOfCutStream(streamed.errorCode),
    errorCode: streamed.errorCode,
    usage,
    usageEstimated: true,
    stream: true,
    firstByteMs,
  };
}
