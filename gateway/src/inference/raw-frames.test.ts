import { describe, expect, it } from 'vitest';
import { RawFrameSplitter, decodeRawFrame } from './raw-frames.js';

describe('RawFrameSplitter', () => {
  it('yields raw frames split anywhere, byte for byte', () => {
    const stream = 'data: {"a":1}\n\nevent: ping\ndata: {}\n\ndata: [DONE]\n\n';
    for (let cut = 1; cut < stream.length; cut += 1) {
      const splitter = new RawFrameSplitter();
      const encoder = new TextEncoder();
      const frames = [
        ...splitter.push(encoder.encode(stream.slice(0, cut))),
        ...splitter.push(encoder.encode(stream.slice(cut))),
        ...splitter.end(),
      ];
      expect(frames.join('')).toBe(stream);
      expect(frames).toHaveLength(3);
    }
  });

  it('normalises CR line breaks and delivers a trailing frame without its blank line', () => {
    const splitter = new RawFrameSplitter();
    const frames = [...splitter.push(new TextEncoder().encode('data: a\r\n\r\ndata: b')), ...splitter.end()];
    expect(frames).toEqual(['data: a\n\n', 'data: b\n\n']);
  });

  it('decodes event names and multi-line data', () => {
    expect(decodeRawFrame('event: message_delta\ndata: {"x":\ndata: 1}\n\n')).toEqual({
      event: 'message_delta',
      data: '{"x":\n1}',
    });
  });
});
