import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Lane } from '../translate/lane.js';
import { SseParser, serializeSseFrame, type SseFrame } from '../translate/sse.js';
import type { StreamTranslator, StreamUsageTracker, TranslationContext } from '../translate/translator.js';
import type { Usage } from '../translate/usage.js';
import { streamErrorFrame } from './stream-errors.js';
import { RawFrameSplitter, decodeRawFrame } from './raw-frames.js';

export interface StreamOutcome {
  usage: Usage | undefined;
  /** The upstream finished its stream properly (`[DONE]` or `message_stop`) with no error event. */
  completed: boolean;
  errorCode: string | null;
  /** Milliseconds from the start of relaying to the first byte written to the client. */
  firstByteMs: number | null;
}

export interface RelayStreamInput {
  upstream: AsyncIterable<Buffer>;
  out: Writable;
  lane: Lane;
  clientFormat: 'chat-completions' | 'messages';
  context: TranslationContext;
  /** We asked the provider for a usage chunk the client did not ask for: keep it from the client. */
  hideUsageChunk: boolean;
  /** Sees every frame the client receives (decoded), e.g. to reassemble the answer for the cache's shadow tier. */
  onClientFrame?: (frame: SseFrame) => void;
  now: () => number;
}

const isTerminal = (frame: SseFrame) => frame.data === '[DONE]' || frame.event === 'message_stop';
const isUpstreamError = (frame: SseFrame) => frame.event === 'error' || frame.data.startsWith('{"error"');

// Cheap textual checks on raw frames; only frames that can matter are decoded.
const rawTerminal = (raw: string) => raw.includes('data: [DONE]') || raw.includes('event: message_stop');
const rawError = (raw: string) => raw.startsWith('event: error') || raw.includes('data: {"error"');
const rawCarriesUsage = (raw: string) => raw.includes('"usage":{') || raw.includes('"usage": {') || raw.includes('event: message_start') || raw.includes('event: message_delta');
const rawUsageOnly = (raw: string) => raw.includes('"choices":[]') && rawCarriesUsage(raw);

interface RelayState {
  completed: boolean;
  errorCode: string | null;
}

/**
 * Same family: raw frames go to the client as received; the gateway only decodes frames that carry usage, and
 * withholds the usage-only chunk it asked for on the client's behalf.
 */
async function relayPassthrough(input: RelayStreamInput, tracker: StreamUsageTracker, state: RelayState, write: (text: string | Buffer) => Promise<void>): Promise<void> {
  const splitter = new RawFrameSplitter();
  const observe = async (frames: string[]) => {
    // Kept frames of one upstream chunk go out in one write: one syscall per chunk, not per event.
    let kept = '';
    for (const raw of frames) {
      if (rawTerminal(raw)) state.completed = true;
      if (rawError(raw)) state.errorCode = 'upstream_stream_error';
      if (rawCarriesUsage(raw)) tracker.observe(decodeRawFrame(raw));
      const hidden = input.hideUsageChunk && rawUsageOnly(raw);
      if (input.onClientFrame && !hidden) input.onClientFrame(decodeRawFrame(raw));
      if (input.hideUsageChunk && !hidden) kept += raw;
    }
    await write(kept);
  };
  for await (const chunk of input.upstream) {
    if (!input.hideUsageChunk) await write(chunk);
    await observe(splitter.push(chunk));
    // An error event ends the stream for the client; a provider that keeps the connection open must not hold it.
    if (state.errorCode !== null) break;
  }
  await observe(splitter.end());
}

/** Crossing families: every frame is decoded and translated into the client's event stream. */
async function relayTranslated(input: RelayStreamInput, translator: StreamTranslator, state: RelayState, write: (text: string | Buffer) => Promise<void>): Promise<void> {
  const parser = new SseParser();
  const observe = async (frames: SseFrame[]) => {
    let translated = '';
    for (const frame of frames) {
      if (isTerminal(frame)) state.completed = true;
      if (isUpstreamError(frame)) state.errorCode = 'upstream_stream_error';
      const clientFrames = translator.push(frame);
      if (input.onClientFrame) clientFrames.forEach(input.onClientFrame);
      translated += clientFrames.map(serializeSseFrame).join('');
    }
    await write(translated);
  };
  for await (const chunk of input.upstream) {
    await observe(parser.push(chunk));
    if (state.errorCode !== null) break;
  }
  await observe(parser.end());
  const tail = translator.end().map(serializeSseFrame).join('');
  if (tail) await write(tail);
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
  const write = async (text: string | Buffer) => {
    if (text.length === 0) return;
    if (firstByteMs === null) firstByteMs = input.now() - started;
    if (!out.write(text)) await once(out, 'drain');
  };
  const tracker = lane.kind === 'passthrough' ? lane.createStreamUsageTracker() : null;
  const translator = lane.kind === 'translate' ? lane.createStreamTranslator(input.context, { clock: { now: input.now } }) : null;
  try {
    if (tracker) await relayPassthrough(input, tracker, state, write);
    else if (translator) await relayTranslated(input, translator, state, write);
  } catch {
    state.errorCode = 'upstream_stream_interrupted';
    state.completed = false;
    await write(streamErrorFrame(input.clientFormat, state.errorCode, 'The provider connection failed in the middle of the stream; the response is incomplete. This is not a gateway failure.')).catch(() => undefined);
  }
  if (!state.completed && state.errorCode === null) {
    state.errorCode = 'upstream_stream_incomplete';
    await write(streamErrorFrame(input.clientFormat, state.errorCode, 'The provider ended the stream before it was complete.')).catch(() => undefined);
  }
  const usage = tracker ? tracker.usage() : translator?.usage();
  return { usage, completed: state.completed && state.errorCode === null, errorCode: state.errorCode, firstByteMs };
}
