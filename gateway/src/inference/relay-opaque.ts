import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { AnthropicStreamUsageTracker, extractAnthropicUsage } from '../providers/translate/extract-anthropic-usage.js';
import { OpenAiStreamUsageTracker, extractOpenAiUsage } from '../providers/translate/extract-openai-usage.js';
import { isPlainObject, parseJson } from '../providers/translate/parse-wire.js';
import type { StreamUsageTracker } from '../providers/translate/translator.js';
import { pickHeaders, relayHeaders, upstreamSourceHeaders } from '../providers/upstream/header-policy.js';
import { UpstreamUnreachable, type UpstreamResponse } from '../providers/upstream/upstream-client.js';
import { abortCauseOf, abortedCallError, statusOfCutStream } from './call-signal.js';
import { usageOfCutStream } from './cut-stream-usage.js';
import { logStreamEnd, takeOverResponse } from './event-stream-response.js';
import type { InferenceDeps } from './inference-deps.js';
import { RawFrameSplitter, decodeRawFrame } from './raw-frames.js';
import { drained } from './relay-stream.js';
import type { Relayed } from './lane-report.js';
import { readBounded, readHead } from './upstream-body.js';
import { readingUpstream, relayUpstreamError, upstreamUnreachableError } from './upstream-error.js';
import { waitingOutShortThrottle } from './short-throttle.js';

/**
 * A JSON answer up to this size is read whole, so its usage reaches the spend row; anything larger (a file's content,
 * a batch's output) and every non-JSON answer is streamed through as it arrives, never held in memory.
 */
const maxBufferedAnswerBytes = 8 * 1024 * 1024;

/** Headers a body needs beyond the relayed ones: what the bytes are, how they are encoded and, when known, how many. */
const bodyHeaders = ['content-type', 'content-disposition', 'content-length', 'content-encoding'] as const;

type Family = 'openai' | 'anthropic';

/** One opaque call: where it goes, as what, and on whose behalf. */
export interface OpaqueForward {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  provider: { slug: string; family?: Family };
  /** The parsed request, for the usage estimate of a stream cut before the provider reported usage. */
  requestBody?: unknown;
  /**
   * A provider 404 becomes this answer instead of being relayed; null relays it. The catch-all uses it for a path
   * that exists nowhere, which is not the same as a missing resource under a real path.
   */
  onNotFound?: (raw: Buffer) => Relayed | null;
  /** The call's signal: aborted when the client leaves or the drain deadline passes. */
  signal: AbortSignal;
  /** The request is going to the provider now, at this time: the provider will see the prompt. */
  onSend(at: number): void;
  /**
   * A successful answer read whole (small JSON), before it is relayed: what the gateway must know of it before the
   * client does (a created batch's owner, so the client's next call finds it), or what the client may not see of it
   * (other keys' batches in a list): a returned body is relayed instead.
   */
  beforeRelay?: (raw: Buffer) => Promise<Buffer | undefined>;
  /** Every byte of a successful answer, in order, as it is relayed (a batch output's lines, read for billing). */
  tap?: (chunk: Buffer) => void;
}

/**
 * Forwards an opaque call (the `/v1/*` catch-all, the seat carrier lane) and relays the provider's answer as it sent
 * it: errors read (bounded) and marked as the provider's, successes streamed (see `relayOpaqueSuccess`). The call is
 * cancelled when the client leaves or the gateway's drain deadline passes; the value says what went out.
 */
export async function forwardOpaque(
  deps: Pick<InferenceDeps, 'clock' | 'sleep' | 'throttle' | 'upstream'>,
  reply: FastifyReply,
  forward: OpaqueForward,
): Promise<Relayed> {
  const { slug, family } = forward.provider;
  const { signal } = forward;
  try {
    // A call the client left while it waited is not sent: the provider never sees it.
    const early = abortCauseOf(signal);
    if (early) throw abortedCallError(early);
    const sentAt = deps.clock.now();
    forward.onSend(sentAt);
    let response: UpstreamResponse;
    try {
      response = await waitingOutShortThrottle(deps, () =>
        deps.upstream.send({
          url: forward.url,
          method: forward.method,
          headers: forward.headers,
          ...(forward.body ? { body: forward.body } : {}),
          signal,
        }),
      );
    } catch (error) {
      if (error instanceof UpstreamUnreachable && !signal.aborted) throw upstreamUnreachableError(slug);
      throw error;
    }
    const sendBuffered = (raw: Buffer) =>
      sendOpaque(reply, { status: response.status, headers: response.headers, raw }, slug, family);
    if (response.status < 400) {
      const sendSuccess = async (raw: Buffer) => {
        const relayedRaw = (await forward.beforeRelay?.(raw)) ?? raw;
        forward.tap?.(relayedRaw);
        return sendBuffered(relayedRaw);
      };
      return await relayOpaqueSuccess({
        reply,
        response,
        slug,
        family,
        now: () => deps.clock.now(),
        sentAt,
        signal,
        requestBody: forward.requestBody,
        sendBuffered: sendSuccess,
        tap: forward.tap,
      });
    }
    const raw = await readingUpstream(slug, readBounded(response.body));
    return (response.status === 404 ? forward.onNotFound?.(raw) : null) ?? sendBuffered(raw);
  } catch (error) {
    // A call the client or the drain deadline cut short says so, whatever the cut looked like from inside.
    const cause = abortCauseOf(signal);
    throw cause ? abortedCallError(cause) : error;
  }
}

/**
 * Relay an opaque upstream answer that was read whole (status, relayable headers, content type, bytes); errors are
 * marked as the provider's, and JSON successes yield usage for the spend row when the family is known.
 */
function sendOpaque(
  reply: FastifyReply,
  response: { status: number; headers: UpstreamResponse['headers']; raw: Buffer },
  slug: string,
  family?: Family,
): Relayed {
  const relayed: Relayed = {
    status: response.status,
    errorCode: response.status >= 400 ? `upstream_${response.status}` : null,
    usage: undefined,
    usageEstimated: false,
    stream: false,
    firstByteMs: null,
  };
  if (response.status >= 500) {
    // A provider 5xx keeps its status and type; only the message gains the sentence naming the provider.
    const error = relayUpstreamError({
      status: response.status,
      text: response.raw.toString('utf8'),
      upstreamHeaders: response.headers,
      slug,
      lane: null,
      messagesClient: family === 'anthropic',
    });
    reply.code(response.status).headers(error.headers).send(error.body);
    return relayed;
  }
  if (response.status >= 400) reply.headers(upstreamSourceHeaders(slug, response.status));
  const contentType = String(response.headers['content-type'] ?? 'application/octet-stream');
  reply
    .code(response.status)
    .headers({
      ...relayHeaders(response.headers),
      ...pickHeaders(response.headers, ['content-disposition', 'content-encoding']),
    })
    .header('content-type', contentType)
    .send(response.raw);
  return family && response.status < 400 && contentType.includes('json')
    ? { ...relayed, usage: usageOf(response.raw, family) }
    : relayed;
}

function usageOf(raw: Buffer, family: Family) {
  const parsed = parseJson(raw.toString('utf8'));
  return family === 'anthropic' ? extractAnthropicUsage(parsed) : extractOpenAiUsage(parsed);
}

interface OpaqueSuccessInput {
  reply: FastifyReply;
  /** A provider answer with a status below 400. */
  response: UpstreamResponse;
  slug: string;
  family: Family | undefined;
  now: () => number;
  /** When the request went upstream, for the first-byte time. */
  sentAt: number;
  /** The call's signal: why a stream was cut short by the gateway's side. */
  signal: AbortSignal;
  requestBody: unknown;
  /** Relay a body that was read whole (usage from JSON, the provider's headers). */
  sendBuffered(raw: Buffer): Promise<Relayed>;
  tap: ((chunk: Buffer) => void) | undefined;
}

/**
 * A successful opaque answer, relayed as the provider sent it. A small JSON answer is read whole (its usage reaches
 * the spend row); an event stream (a streamed Responses call, a seat's Messages stream) reaches the client chunk by
 * chunk while the gateway watches its frames for usage; anything else (a file's content, audio) streams through.
 */
async function relayOpaqueSuccess(input: OpaqueSuccessInput): Promise<Relayed> {
  const { response } = input;
  const contentType = String(response.headers['content-type'] ?? '');
  const body = (response.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  if (contentType.includes('text/event-stream'))
    return {
      ...(await streamThrough(input, [], body, input.family ? frameWatcher(input.family) : null)),
      stream: true,
    };
  if (contentType.includes('json')) {
    const head = await readingUpstream(input.slug, readHead(body, maxBufferedAnswerBytes));
    if (head.complete) return await input.sendBuffered(Buffer.concat(head.chunks));
    return streamThrough(input, head.chunks, body, null);
  }
  return streamThrough(input, [], body, null);
}

interface FrameWatcher {
  push(chunk: Buffer): void;
  /** Call once, at the end: the usage the frames carried, whether one was the provider's error, how many were content. */
  end(): { usage: ReturnType<StreamUsageTracker['usage']>; failed: boolean; contentEvents: number };
}

/**
 * Watches an opaque event stream for the spend row: usage (a Messages stream's start and delta, a Responses stream's
 * completed event) and an in-band failure (`event: error`, a Responses `response.failed`, an OpenAI error object),
 * which the client's SDK raises and the row must not record as a success.
 */
function frameWatcher(family: Family): FrameWatcher {
  const tracker: StreamUsageTracker =
    family === 'anthropic' ? new AnthropicStreamUsageTracker() : new OpenAiStreamUsageTracker();
  const splitter = new RawFrameSplitter();
  let failed = false;
  let contentEvents = 0;
  const observe = (raw: string) => {
    // Messages `content_block_delta`, Responses `response.output_text.delta` and the other `*.delta` events.
    if (raw.includes('delta')) contentEvents += 1;
    if (raw.includes('usage')) tracker.observe(decodeRawFrame(raw));
    if (!failed && (raw.includes('error') || raw.includes('response.failed')))
      failed = isFailureFrame(decodeRawFrame(raw));
  };
  return {
    push: (chunk) => splitter.push(chunk).forEach(observe),
    end: () => {
      splitter.end().forEach(observe);
      return { usage: tracker.usage(), failed, contentEvents };
    },
  };
}

function isFailureFrame(frame: { event?: string; data: string }): boolean {
  if (frame.event === 'error' || frame.event === 'response.failed') return true;
  const parsed = parseJson(frame.data);
  if (!isPlainObject(parsed)) return false;
  return (
    parsed.type === 'error' ||
    parsed.type === 'response.failed' ||
    (isPlainObject(parsed.error) && !('choices' in parsed) && !('response' in parsed))
  );
}

/**
 * Writes `head` and then the rest of the body to the client as it arrives, with backpressure. An opaque body has no
 * in-band error form, so a provider connection that fails midway ends the client's connection without the final
 * chunk: the client sees a truncated transfer, never a clean end that looks complete.
 */
async function streamThrough(
  input: OpaqueSuccessInput,
  head: Buffer[],
  rest: AsyncIterator<Buffer>,
  watcher: FrameWatcher | null,
): Promise<Relayed> {
  const { reply, response } = input;
  const out = takeOverResponse(reply, response.status, {
    ...relayHeaders(response.headers),
    ...pickHeaders(response.headers, bodyHeaders),
  });
  const delivery = { firstByteMs: null as number | null };
  let errorCode: string | null = null;
  try {
    for (const chunk of head) await deliver(out, chunk, input, watcher, delivery);
    for (let next = await rest.next(); !next.done; next = await rest.next()) {
      if (out.destroyed) break;
      await deliver(out, next.value, input, watcher, delivery);
    }
  } catch {
    // The client left, or the drain deadline passed, and the call's signal aborted the upstream read; or the
    // provider's connection failed midway.
    errorCode = abortCauseOf(input.signal) ?? (out.destroyed ? 'client_closed' : 'upstream_stream_interrupted');
  }
  if (errorCode === null && out.destroyed) errorCode = 'client_closed';
  if (errorCode === null) out.end();
  else if (!out.destroyed) out.destroy();
  const watched = watcher?.end();
  // The stream reached the client whole, but what it told was the provider failing.
  if (errorCode === null && watched?.failed) errorCode = 'upstream_stream_error';
  logStreamEnd(reply, { completed: errorCode === null, errorCode });
  const relayed: Relayed = {
    status: errorCode === null ? response.status : statusOfCutStream(errorCode),
    errorCode,
    usage: watched?.usage,
    usageEstimated: false,
    stream: false,
    firstByteMs: delivery.firstByteMs,
  };
  // A stream that did not complete never got the provider's final usage, yet was billed: record the estimate, flagged.
  if (watched && errorCode !== null)
    return {
      ...relayed,
      usage: usageOfCutStream(watched.usage, input.requestBody, watched.contentEvents),
      usageEstimated: true,
    };
  return relayed;
}

async function deliver(
  out: ServerResponse,
  chunk: Buffer,
  input: OpaqueSuccessInput,
  watcher: FrameWatcher | null,
  delivery: { firstByteMs: number | null },
): Promise<void> {
  if (delivery.firstByteMs === null) delivery.firstByteMs = input.now() - input.sentAt;
  watcher?.push(chunk);
  input.tap?.(chunk);
  if (!out.write(chunk)) await drained(out, input.signal);
}
