import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSse, serializeSseFrame, serializeSseFrames, SseParser, type SseFrame } from './sse.js';

const encoder = new TextEncoder();

function parseInChunks(bytes: Uint8Array, cuts: number[]): SseFrame[] {
  const parser = new SseParser();
  const frames: SseFrame[] = [];
  let start = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    frames.push(...parser.push(bytes.subarray(start, cut)));
    start = cut;
  }
  frames.push(...parser.push(bytes.subarray(start)), ...parser.end());
  return frames;
}

describe('SseParser', () => {
  it('parses named events with JSON data, the way Messages streams arrive', () => {
    const text = 'event: message_start\ndata: {"type":"message_start"}\n\nevent: ping\ndata: {"type": "ping"}\n\n';
    expect(parseSse(text)).toStrictEqual([
      { event: 'message_start', data: '{"type":"message_start"}' },
      { event: 'ping', data: '{"type": "ping"}' },
    ]);
  });

  it('joins multi-line data with newlines and strips only one leading space', () => {
    expect(parseSse('data: first\ndata:second\ndata:  third\n\n')).toStrictEqual([{ data: 'first\nsecond\n third' }]);
  });

  it('accepts CRLF and lone CR line endings', () => {
    expect(parseSse('data: a\r\n\r\ndata: b\r\rdata: c\n\n')).toStrictEqual([
      { data: 'a' },
      { data: 'b' },
      { data: 'c' },
    ]);
  });

  it('ignores comments, unknown fields and frames without data', () => {
    expect(parseSse(': keep-alive\n\nevent: ping\n\nfoo: bar\ndata: x\n\n')).toStrictEqual([{ data: 'x' }]);
  });

  it('keeps id and retry of a frame, and a field with no colon has an empty value', () => {
    expect(parseSse('id: 7\nretry: 1500\ndata\n\n')).toStrictEqual([{ id: '7', retry: 1500, data: '' }]);
  });

  it('delivers a last frame that has no closing blank line when the upstream ends', () => {
    const parser = new SseParser();
    expect(parser.push('data: {"usage":{}}\n\ndata: [DONE]')).toStrictEqual([{ data: '{"usage":{}}' }]);
    expect(parser.end()).toStrictEqual([{ data: '[DONE]' }]);
  });

  it('strips a UTF-8 byte order mark at the start of the stream', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode('data: x\n\n')]);
    expect(parseInChunks(bytes, [1, 2])).toStrictEqual([{ data: 'x' }]);
  });

  it('produces the same frames however the bytes are split, including inside UTF-8 sequences and CRLF pairs', () => {
    const stream =
      'event: content_block_delta\r\ndata: {"text":"Olá — 東京 🚀"}\r\n\r\n' +
      ': comment\n' +
      'data: line one\rdata: line two\r\r' +
      'event: message_stop\ndata: {"type":"message_stop"}\n\n';
    const bytes = encoder.encode(stream);
    const expected = parseSse(stream);
    expect(expected).toHaveLength(3);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 40 }), (cuts) => {
        expect(parseInChunks(bytes, cuts)).toStrictEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('handles a CR at the very end of a chunk followed by LF in the next one as one line break', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\r')).toStrictEqual([]);
    expect(parser.push('\n\r')).toStrictEqual([{ data: 'a' }]);
    expect(parser.push('\ndata: b\n\n')).toStrictEqual([{ data: 'b' }]);
  });
});

describe('serializeSseFrame', () => {
  it('writes event, id, retry and one data line per line of data, ending with a blank line', () => {
    expect(serializeSseFrame({ event: 'message_delta', id: '3', retry: 10, data: 'a\nb' })).toBe(
      'event: message_delta\nid: 3\nretry: 10\ndata: a\ndata: b\n\n',
    );
    expect(serializeSseFrame({ data: '[DONE]' })).toBe('data: [DONE]\n\n');
  });

  it('cannot be made to inject a field through an event name', () => {
    expect(serializeSseFrame({ event: 'x\ndata: injected', data: 'y' })).toBe('event: x data: injected\ndata: y\n\n');
  });

  it('round-trips through the parser', () => {
    const frameArbitrary = fc.record({
      event: fc.option(fc.stringMatching(/^[a-z_]{1,12}$/), { nil: undefined }),
      data: fc.string({ unit: fc.constantFrom('a', 'é', '🚀', ' ', '\n', ':', '{', '"') }),
    });
    fc.assert(
      fc.property(fc.array(frameArbitrary, { maxLength: 8 }), (frames) => {
        const normalized = frames.map((frame) =>
          frame.event === undefined ? { data: frame.data } : { event: frame.event, data: frame.data },
        );
        expect(parseSse(serializeSseFrames(normalized))).toStrictEqual(normalized);
      }),
    );
  });
});
