import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pickTranslator } from '../providers/translate/index.js';
import { relayStream, type RelayStreamInput, type StreamOutcome } from './relay-stream.js';

const usageChunk =
  'data: {"id":"c1","choices":[],"usage":{"prompt_tokens":15,"completion_tokens":30,"total_tokens":45}}\n\n';
const openAiStream = [
  'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Héllo "}}],"usage":null}\n\n',
  'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"wörld"},"finish_reason":"stop"}],"usage":null}\n\n',
  usageChunk,
  'data: [DONE]\n\n',
].join('');
const anthropicStream = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"m1","usage":{"input_tokens":12,"output_tokens":1}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
].join('');
const errorStream =
  'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"a"}}],"usage":null}\n\ndata: {"error":{"message":"overloaded"}}\n\ndata: [DONE]\n\n';

/** Three content chunks whose text quotes the end and error markers, and no real end: the provider stopped short. */
const quotingStream = ['say data: [DONE] now', 'event: message_stop', 'data: {\\"error\\"', 'and event: error']
  .map((content) => `data: {"id":"c1","choices":[{"index":0,"delta":{"content":"${content}"}}]}\n\n`)
  .join('');

/** Cuts `text` (as UTF-8 bytes) at the given offsets. */
function chunked(text: string, cuts: number[]): Buffer[] {
  const bytes = Buffer.from(text);
  const points = [0, ...cuts.filter((cut) => cut > 0 && cut < bytes.length), bytes.length];
  return points.slice(1).map((end, index) => bytes.subarray(points[index], end));
}

async function* upstreamOf(chunks: Buffer[]): AsyncIterable<Buffer> {
  for (const chunk of chunks) yield chunk;
}

async function relayTo(
  chunks: Buffer[],
  options: { messages?: boolean; crossing?: boolean; hideUsageChunk: boolean; observeFrames?: boolean },
): Promise<{ text: string; outcome: StreamOutcome }> {
  const out = new PassThrough();
  const received: Buffer[] = [];
  out.on('data', (chunk: Buffer) => received.push(chunk));
  const input: RelayStreamInput = {
    upstream: upstreamOf(chunks),
    out,
    lane: pickTranslator(
      options.messages ? 'messages' : 'chat-completions',
      (options.messages === true) === (options.crossing === true) ? 'openai' : 'anthropic',
    ),
    clientFormat: options.messages ? 'messages' : 'chat-completions',
    context: { stream: true, includeUsage: !options.hideUsageChunk, requestModel: 'gpt-4o-mini' },
    hideUsageChunk: options.hideUsageChunk,
    now: () => 0,
    // A frame observer makes the relay split frames as text: the reference the byte path must match.
    ...(options.observeFrames ? { onClientFrame: () => undefined } : {}),
  };
  const outcome = await relayStream(input);
  out.end();
  return { text: Buffer.concat(received).toString('utf8'), outcome: { ...outcome, firstByteMs: null } };
}

describe('relayStream, same family', () => {
  const cases = [
    { name: 'an OpenAI stream with a hidden usage chunk', stream: openAiStream, hideUsageChunk: true },
    { name: 'an OpenAI stream whose client asked for usage', stream: openAiStream, hideUsageChunk: false },
    { name: 'an Anthropic stream', stream: anthropicStream, hideUsageChunk: false, messages: true },
    { name: 'an upstream error event', stream: errorStream, hideUsageChunk: true },
    {
      name: 'frames separated by extra blank lines',
      stream: openAiStream.replace('\n\ndata: [DONE]', '\n\n\ndata: [DONE]'),
      hideUsageChunk: true,
    },
    { name: 'CR line breaks', stream: openAiStream.replaceAll('\n', '\r\n'), hideUsageChunk: true },
    { name: 'a last frame without its blank line', stream: openAiStream.slice(0, -2), hideUsageChunk: true },
    { name: 'content quoting the markers, cut before its end', stream: quotingStream, hideUsageChunk: false },
  ];

  for (const testCase of cases) {
    it(`relays ${testCase.name} exactly as the frame-by-frame path does, wherever the bytes are cut`, async () => {
      const length = Buffer.byteLength(testCase.stream);
      const options = { hideUsageChunk: testCase.hideUsageChunk, ...(testCase.messages ? { messages: true } : {}) };
      for (let cut = 0; cut < length; cut += 7) {
        for (const cuts of [[cut], [cut, cut + 3, cut + 60]]) {
          // Where an error event cuts the stream off depends on how the bytes arrived, so compare like with like.
          const reference = await relayTo(chunked(testCase.stream, cuts), { ...options, observeFrames: true });
          expect(await relayTo(chunked(testCase.stream, cuts), options)).toEqual(reference);
        }
      }
    });
  }

  it('withholds only the usage chunk it asked for, and still meters it', async () => {
    const { text, outcome } = await relayTo(chunked(openAiStream, [40, 200]), { hideUsageChunk: true });
    expect(text).toBe(openAiStream.replace(usageChunk, ''));
    expect(outcome).toMatchObject({ completed: true, errorCode: null, usage: { inputTokens: 15, outputTokens: 30 } });
  });

  it('counts the events it sent, wherever the bytes are cut, and calls a stream cut before its end incomplete', async () => {
    for (let cut = 0; cut < quotingStream.length; cut += 5) {
      for (const observeFrames of [false, true]) {
        const { outcome } = await relayTo(chunked(quotingStream, [cut, cut + 11]), {
          hideUsageChunk: false,
          observeFrames,
        });
        // Four content events and the error event the relay adds.
        expect(outcome).toMatchObject({ completed: false, errorCode: 'upstream_stream_incomplete', eventsSent: 5 });
      }
    }
  });

  it('ends the stream at an upstream error event', async () => {
    const { outcome } = await relayTo(chunked(errorStream, []), { hideUsageChunk: true });
    expect(outcome).toMatchObject({ completed: false, errorCode: 'upstream_stream_error' });
  });
});

describe('relayStream, crossing families', () => {
  const errorFrames = (text: string) =>
    text.split('\n\n').filter((frame) => frame.startsWith('event: error') || frame.startsWith('data: {"error"'));

  it('completes a Messages stream whose OpenAI provider closed after the finish chunk and usage without [DONE]', async () => {
    const { text, outcome } = await relayTo(chunked(openAiStream.replace('data: [DONE]\n\n', ''), [90]), {
      messages: true,
      crossing: true,
      hideUsageChunk: false,
    });
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
    expect(outcome).toMatchObject({ completed: true, errorCode: null, usage: { inputTokens: 15, outputTokens: 30 } });
  });

  it('does not count an OpenAI [DONE] without a finish chunk as a complete Messages stream', async () => {
    const unfinished = openAiStream.replace('"finish_reason":"stop"', '"finish_reason":null');
    const { text, outcome } = await relayTo(chunked(unfinished, []), {
      messages: true,
      crossing: true,
      hideUsageChunk: false,
    });
    expect(text).not.toContain('event: message_stop');
    expect(errorFrames(text)).toHaveLength(1);
    expect(outcome).toMatchObject({ completed: false, errorCode: 'upstream_stream_error' });
  });

  it('sends one error frame, the translator’s, when an Anthropic stream is cut before message_stop', async () => {
    const { text, outcome } = await relayTo(chunked(anthropicStream.replace(/event: message_stop[^]*$/, ''), [50]), {
      crossing: true,
      hideUsageChunk: false,
    });
    expect(text).not.toContain('[DONE]');
    expect(errorFrames(text)).toStrictEqual([expect.stringContaining('"code":"upstream_stream_incomplete"')]);
    expect(outcome).toMatchObject({ completed: false, errorCode: 'upstream_stream_incomplete' });
  });

  it('completes a chat stream translated from a whole Anthropic stream', async () => {
    const { text, outcome } = await relayTo(chunked(anthropicStream, [33]), { crossing: true, hideUsageChunk: false });
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(outcome).toMatchObject({ completed: true, errorCode: null, usage: { inputTokens: 12, outputTokens: 7 } });
  });
});

describe('relayStream into an HTTP response', () => {
  /** Serves one relayed stream whose upstream chunks arrive each in an event-loop turn of its own; resolves with what the client read. */
  async function serve(chunks: Buffer[]): Promise<string> {
    const server = createServer((_request, response: ServerResponse) => {
      async function* paced(): AsyncIterable<Buffer> {
        for (const chunk of chunks) {
          yield chunk;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      response.statusCode = 200;
      response.setHeader('content-type', 'text/event-stream');
      const lane = pickTranslator('chat-completions', 'openai');
      const context = { stream: true, includeUsage: false, requestModel: 'gpt-4o' };
      void relayStream({
        upstream: paced(),
        out: response,
        lane,
        clientFormat: 'chat-completions',
        context,
        hideUsageChunk: true,
        now: () => 0,
      }).then(() => response.end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      return await new Promise<string>((resolve, reject) => {
        const call = httpRequest({ host: '127.0.0.1', port, path: '/', method: 'POST' }, (response) => {
          const received: Buffer[] = [];
          response.on('data', (chunk: Buffer) => received.push(chunk));
          response.on('end', () => resolve(Buffer.concat(received).toString('utf8')));
        });
        call.on('error', reject);
        call.end();
      });
    } finally {
      server.close();
    }
  }

  it('delivers every frame of a paced stream before the end of the response (the socket is corked, not the response)', async () => {
    const frames = openAiStream.split(/(?<=\n\n)/);
    expect(await serve(frames.map((frame) => Buffer.from(frame)))).toBe(openAiStream.replace(usageChunk, ''));
  });

  it('delivers a stream that arrives in one piece', async () => {
    expect(await serve([Buffer.from(openAiStream)])).toBe(openAiStream.replace(usageChunk, ''));
  });

  it('calls a stream the client walked away from cancelled, not a provider failure', async () => {
    const out = new PassThrough();
    out.resume();
    async function* abortedByClientClose(): AsyncIterable<Buffer> {
      yield Buffer.from('data: {"id":"c1","choices":[{"index":0,"delta":{"content":"a"}}],"usage":null}\n\n');
      // The client's close destroys the response and aborts the upstream read, which then throws.
      out.destroy();
      throw new Error('aborted');
    }
    const outcome = await relayStream({
      upstream: abortedByClientClose(),
      out,
      lane: pickTranslator('chat-completions', 'openai'),
      clientFormat: 'chat-completions',
      context: { stream: true, includeUsage: true, requestModel: 'gpt-4o-mini' },
      hideUsageChunk: false,
      now: () => 0,
    });
    expect(outcome).toMatchObject({ completed: false, errorCode: 'client_closed' });
  });
});
