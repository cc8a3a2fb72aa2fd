import type { Lane } from '../providers/translate/lane.js';
import { SseParser, serializeSseFrame, type SseFrame } from '../providers/translate/sse.js';
import type { StreamTranslator, StreamUsageTracker, TranslationContext } from '../providers/translate/translator.js';
import type { Usage } from '../providers/translate/usage.js';
import { abortCauseOf } from './call-signal.js';
import { streamErrorFrame } from './stream-errors.js';
import {
  RawFrameSplitter,
  decodeRawFrame,
  rawCarriesUsage,
  rawError,
  rawTerminal,
  rawUsageOnly,
} from './raw-frames.js';
import { RawFrameScanner, type ScannedRegion } from './raw-frame-scanner.js';

export interface StreamOutcome {
  usage: Usage | undefined;
  /**
   * The client got a whole message with no error event: same family, the upstream's `[DONE]` or `message_stop`;
   * crossing, the translator's (it also completes an OpenAI stream that ends after its finish chunk).
   */
  completed: boolean;
  errorCode: string | null;
  /** Milliseconds from the start of relaying to the first byte written to the client. */
  firstByteMs: number | null;
  /** Events written to the client, for the usage estimate of a stream cut before the provider reported usage. */
  eventsSent: number;
}

/** Where the relay writes: the client's response (`reply.raw`) or any writable stream. */
export interface ClientSink {
  write(chunk: string | Buffer): boolean;
  /** The connection under the response, when there is one (`ServerResponse.socket`). */
  readonly socket?: { cork(): void; uncork(): void } | null;
  on(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
}

export interface RelayStreamInput {
  upstream: AsyncIterable<Buffer>;
  out: ClientSink;
  lane: Lane;
  clientFormat: 'chat-completions' | 'messages';
  context: TranslationContext;
  /** We asked the provider for a usage chunk the client did not ask for: keep it from the client. */
  hideUsageChunk: boolean;
  /** Sees every frame the client receives (decoded), e.g. to reassemble the answer for the cache's shadow tier. */
  onClientFrame?: (frame: SseFrame) => void;
  /** The call's signal (`callSignal`): says whether an aborted read was the client leaving or the drain deadline. */
  signal?: AbortSignal;
  now: () => number;
}

const isTerminal = (frame: SseFrame) => frame.data === '[DONE]' || frame.event === 'message_stop';
const isUpstreamError = (frame: SseFrame) => frame.event === 'error' || frame.data.startsWith('{"error"');

const interruptedMessage =
  'The provider connection failed in the middle of the stream; the response is incomplete. This is not a gateway failure.';
const drainingMessage =
  'This gateway replica is shutting down and ended the stream before it was complete; retry the request.';

interface RelayState {
  completed: boolean;
  errorCode: string | null;
}

/** What the relay decides about one raw frame (completion, errors, usage); true when it is withheld from the client. */
function inspectFrame(raw: string, input: RelayStreamInput, tracker: StreamUsageTracker, state: RelayState): boolean {
  if (rawTerminal(raw)) state.completed = true;
  if (rawError(raw)) state.errorCode = 'upstream_stream_error';
  if (rawCarriesUsage(raw)) tracker.observe(decodeRawFrame(raw));
  return input.hideUsageChunk && rawUsageOnly(raw);
}

/**
 * Same family: raw frames go to the client as received; the gateway only decodes frames that carry usage, and
 * withholds the usage-only chunk it asked for on the client's behalf. Bytes stay bytes (`RawFrameScanner`) unless a
 * frame observer needs every frame decoded or the stream uses CR line breaks; then frames are split as text.
 */
async function relayPassthrough(
  input: RelayStreamInput,
  tracker: StreamUsageTracker,
  state: RelayState,
  write: (text: string | Buffer, events: number) => Promise<void>,
): Promise<void> {
  // Made only when the text path is taken: its decoder is a cost per stream the byte path does not need.
  let textSplitter: RawFrameSplitter | null = null;
  const splitter = () => (textSplitter ??= new RawFrameSplitter());
  const observeFrames = async (frames: string[]) => {
    // Kept frames of one upstream chunk go out in one write: one syscall per chunk, not per event.
    let kept = '';
    let keptFrames = 0;
    for (const raw of frames) {
      const hidden = inspectFrame(raw, input, tracker, state);
      if (input.onClientFrame && !hidden) input.onClientFrame(decodeRawFrame(raw));
      if (input.hideUsageChunk && !hidden) {
        kept += raw;
        keptFrames += 1;
      }
    }
    await write(kept, keptFrames);
  };
  const observeRegion = async (region: ScannedRegion) => {
    // The bytes around a withheld frame go out as views of the region, written one after the other: the socket is
    // corked for the turn, so they still leave in one syscall, and no per-stream copy of the region is made.
    const kept: Buffer[] = [];
    let from = 0;
    let withheld = 0;
    for (const frame of region.marked) {
      if (!inspectFrame(frame.raw, input, tracker, state)) continue;
      if (frame.start > from) kept.push(region.bytes.subarray(from, frame.start));
      from = frame.end;
      withheld += 1;
    }
    if (!input.hideUsageChunk) return;
    if (from === 0) return write(region.bytes, region.frames);
    if (from < region.bytes.length) kept.push(region.bytes.subarray(from));
    // The region's events go out with its first part; the rest are the same events' remaining bytes.
    let events = region.frames - withheld;
    for (const part of kept) {
      await write(part, events);
      events = 0;
    }
  };
  // Null once the text path is taken: a frame observer needs every frame decoded, or the stream uses CR line breaks.
  let scanner: RawFrameScanner | null = input.onClientFrame ? null : new RawFrameScanner();
  for await (const chunk of input.upstream) {
    // Nothing withheld: the provider's bytes go out as received, and the frames they complete are the events sent.
    const region = scanner?.push(chunk);
    if (region) {
      if (!input.hideUsageChunk) await write(chunk, region.frames);
      await observeRegion(region);
    } else {
      const pending = scanner?.takePending();
      scanner = null;
      const frames = splitter().push(pending ?? chunk);
      if (!input.hideUsageChunk) await write(chunk, frames.length);
      await observeFrames(frames);
    }
    // An error event ends the stream for the client; a provider that keeps the connection open must not hold it.
    if (state.errorCode !== null) break;
  }
  // What the byte path held back is a last frame without its blank line, or nothing (the usual end).
  const held = scanner?.takePending();
  if (held?.length === 0) return;
  await observeFrames([...(held ? splitter().push(held) : []), ...splitter().end()]);
}

/**
 * Crossing families: every frame is decoded and translated into the client's event stream. The translator, not the
 * upstream, says whether the client got a whole message: an OpenAI stream that ends after its finish chunk without
 * `[DONE]` still completes (`message_stop` from `end()`), and an upstream `[DONE]` without a finish chunk does not.
 * An error frame the translator wrote is the client's one error frame; the relay adds none of its own.
 */
async function relayTranslated(
  input: RelayStreamInput,
  translator: StreamTranslator,
  state: RelayState,
  write: (text: string | Buffer, events: number) => Promise<void>,
): Promise<void> {
  const parser = new SseParser();
  const relay = async (clientFrames: SseFrame[], errorCode: string) => {
    for (const frame of clientFrames) {
      if (isTerminal(frame)) state.completed = true;
      else if (isUpstreamError(frame)) state.errorCode ??= errorCode;
      input.onClientFrame?.(frame);
    }
    await write(clientFrames.map(serializeSseFrame).join(''), clientFrames.length);
  };
  const observe = async (frames: SseFrame[]) => {
    const clientFrames: SseFrame[] = [];
    for (const frame of frames) {
      if (isUpstreamError(frame)) state.errorCode = 'upstream_stream_error';
      clientFrames.push(...translator.push(frame));
    }
    await relay(clientFrames, 'upstream_stream_error');
  };
  for await (const chunk of input.upstream) {
    await observe(parser.push(chunk));
    if (state.errorCode !== null) break;
  }
  await observe(parser.end());
  await relay(translator.end(), 'upstream_stream_incomplete');
}

/**
 * Backpressure: wait until the client takes more, or is gone ('drain' never comes for a closed connection), or the
 * call's signal aborts: a client that stopped reading must not hold the relay past the drain deadline, or the call
 * would end (and be recorded) only when the connections are closed under it.
 */
export function drained(out: Pick<ClientSink, 'on' | 'off'>, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Relay an upstream event stream to the client. Same family: bytes go through as received (only an injected usage
 * chunk is withheld). Crossing: frames are translated. A stream never replays: once bytes reached the client, an
 * upstream failure becomes an SSE error event the client's SDK raises, and the call is recorded as a failure.
 */
export async function relayStream(input: RelayStreamInput): Promise<StreamOutcome> {
  const { lane, out } = input;
  const state: RelayState = { completed: false, errorCode: null };
  const started = input.now();
  let firstByteMs: number | null = null;
  let eventsSent = 0;
  let corked = false;
  /** Writes `text`, which completes `events` events (counted for the estimate of a cut stream's usage). */
  const write = async (text: string | Buffer, events: number) => {
    // A client that left takes no more bytes; the aborted upstream ends the relay.
    if (text.length === 0 || out.destroyed || out.writableEnded) return;
    if (firstByteMs === null) firstByteMs = input.now() - started;
    eventsSent += events;
    // Held until the end of this event-loop turn: when the provider's last frames and its end arrive together (the
    // usual case for a short answer), the caller's `end()` joins the same write instead of costing a syscall of its
    // own. A paced stream is not delayed: the turn ends as soon as this chunk's work is done. The socket is corked,
    // not the response: a corked `ServerResponse` holds chunks back and `end()` would send its terminator first.
    const socket = out.socket;
    if (socket && !corked) {
      corked = true;
      socket.cork();
      setImmediate(() => {
        corked = false;
        // Uncorking an already flushed socket (`end()` flushes fully) does nothing.
        socket.uncork();
      });
    }
    if (!out.write(text)) await drained(out, input.signal);
  };
  const tracker = lane.kind === 'passthrough' ? lane.createStreamUsageTracker() : null;
  const translator =
    lane.kind === 'translate' ? lane.createStreamTranslator(input.context, { clock: { now: input.now } }) : null;
  const usageSoFar = () => (tracker ? tracker.usage() : translator?.usage());
  try {
    if (tracker) await relayPassthrough(input, tracker, state, write);
    else if (translator) await relayTranslated(input, translator, state, write);
  } catch {
    state.completed = false;
    // The client left and its close aborted the upstream read: a cancellation, not a provider failure.
    if (out.destroyed)
      return { usage: usageSoFar(), completed: false, errorCode: 'client_closed', firstByteMs, eventsSent };
    const draining = input.signal !== undefined && abortCauseOf(input.signal) === 'gateway_draining';
    state.errorCode = draining ? 'gateway_draining' : 'upstream_stream_interrupted';
    await write(
      streamErrorFrame(input.clientFormat, state.errorCode, draining ? drainingMessage : interruptedMessage),
      1,
    ).catch(() => undefined);
  }
  if (!state.completed && state.errorCode === null) {
    state.errorCode = 'upstream_stream_incomplete';
    await write(
      streamErrorFrame(input.clientFormat, state.errorCode, 'The provider ended the stream before it was complete.'),
      1,
    ).catch(() => undefined);
  }
  const usage = usageSoFar();
  return {
    usage,
    completed: state.completed && state.errorCode === null,
    errorCode: state.errorCode,
    firstByteMs,
    eventsSent,
  };
}
