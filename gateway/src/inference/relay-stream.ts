import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Lane } from '../translate/lane.js';
import { SseParser, serializeSseFrame, type SseFrame } from '../translate/sse.js';
import type { StreamTranslator, StreamUsageTracker, TranslationContext } from '../translate/translator.js';
import type { Usage } from '../translate/usage.js';
import { streamErrorFrame } from './stream-errors.js';

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
  now: () => number;
}

interface FrameSink {
  frame(frame: SseFrame): string | null;
  end(): string;
  usage(): Usage | undefined;
}

const isTerminal = (frame: SseFrame) => frame.data === '[DONE]' || frame.event === 'message_stop';
const isUpstreamError = (frame: SseFrame) => frame.event === 'error' || (frame.data.startsWith('{"error"') && frame.data.includes('"error"'));

function usageOnlyChunk(frame: SseFrame): boolean {
  if (!frame.data.startsWith('{') || !frame.data.includes('"usage"')) return false;
  try {
    const chunk = JSON.parse(frame.data) as { choices?: unknown[]; usage?: unknown };
    return Array.isArray(chunk.choices) && chunk.choices.length === 0 && chunk.usage !== undefined && chunk.usage !== null;
  } catch {
    return false;
  }
}

function passthroughSink(tracker: StreamUsageTracker, hideUsageChunk: boolean): FrameSink {
  return {
    frame: (frame) => {
      tracker.observe(frame);
      return hideUsageChunk && usageOnlyChunk(frame) ? '' : null;
    },
    end: () => '',
    usage: () => tracker.usage(),
  };
}

function translatingSink(translator: StreamTranslator): FrameSink {
  return {
    frame: (frame) => translator.push(frame).map(serializeSseFrame).join(''),
    end: () => translator.end().map(serializeSseFrame).join(''),
    usage: () => translator.usage(),
  };
}

/**
 * Relay an upstream event stream to the client. Same family: bytes go through as received (only an injected usage
 * chunk is withheld). Crossing: frames are translated. A stream never replays: once bytes reached the client, an
 * upstream failure becomes an SSE error event the client's SDK raises, and the call is recorded as a failure.
 */
export async function relayStream(input: RelayStreamInput): Promise<StreamOutcome> {
  const { lane, out } = input;
  const sink = lane.kind === 'passthrough' ? passthroughSink(lane.createStreamUsageTracker(), input.hideUsageChunk) : translatingSink(lane.createStreamTranslator(input.context, { clock: { now: input.now } }));
  const frameMode = lane.kind === 'translate' || input.hideUsageChunk;
  const parser = new SseParser();
  const started = input.now();
  let firstByteMs: number | null = null;
  let completed = false;
  let errorCode: string | null = null;

  const write = async (text: string | Buffer) => {
    if (text.length === 0) return;
    if (firstByteMs === null) firstByteMs = input.now() - started;
    if (!out.write(text)) await once(out, 'drain');
  };
  const observe = async (frames: SseFrame[]) => {
    for (const frame of frames) {
      if (isTerminal(frame)) completed = true;
      if (isUpstreamError(frame)) errorCode = 'upstream_stream_error';
      const replacement = sink.frame(frame);
      if (frameMode) await write(replacement ?? serializeSseFrame(frame));
    }
  };

  try {
    for await (const chunk of input.upstream) {
      if (!frameMode) await write(chunk);
      await observe(parser.push(chunk));
    }
    await observe(parser.end());
    await write(sink.end());
  } catch {
    errorCode = 'upstream_stream_interrupted';
    completed = false;
    await write(streamErrorFrame(input.clientFormat, errorCode, 'The provider connection failed in the middle of the stream; the response is incomplete. This is not a gateway failure.')).catch(() => undefined);
  }
  if (!completed && errorCode === null) {
    errorCode = 'upstream_stream_incomplete';
    await write(streamErrorFrame(input.clientFormat, errorCode, 'The provider ended the stream before it was complete.')).catch(() => undefined);
  }
  return { usage: sink.usage(), completed: completed && errorCode === null, errorCode, firstByteMs };
}
