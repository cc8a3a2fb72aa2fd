import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RawFrameScanner } from './raw-frame-scanner.js';
import { rawCarriesUsage, rawError, rawTerminal } from './raw-frames.js';

/** The frames the relay's checks act on: the scanner must find exactly these. */
const matters = (frame: string) => rawTerminal(frame) || rawError(frame) || rawCarriesUsage(frame);

const frames = [
  'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Héllo \\"quoted\\""}}],"usage":null}\n\n',
  'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"data: event: usage"}}]}\n\n',
  'data: {"id":"c1","choices":[],"usage":{"prompt_tokens":15,"completion_tokens":30,"total_tokens":45}}\n\n',
  'data: {"id":"c1","choices":[],"usage": {"prompt_tokens":1}}\n\n',
  'data: {"error":{"message":"overloaded"}}\n\n',
  'data: [DONE]\n\n',
  'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":12}}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"\\"usage\\": {"}}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":7}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
  'event: ping\ndata: {"type":"ping"}\n\n',
  'event: message_other\ndata: {"type":"message_other"}\n\n',
  'event: error\ndata: {"type":"error","error":{"type":"overloaded_error"}}\n\n',
  ': keep-alive comment\n\n',
  // A marker quoted inside the JSON text is content, not the stream's end.
  'data: {"id":"c1","choices":[{"index":0,"delta":{"content":"say data: [DONE] or event: error"}}]}\n\n',
  'event: content_block_delta\ndata: {"error":{"type":"overloaded_error"}}\n\n',
  '\n',
];

/** Feeds `text` cut at `cuts` through a scanner: every region's bytes, the frames it marked, what was held back. */
function scan(text: string, cuts: number[]) {
  const bytes = Buffer.from(text);
  const points = [...new Set([0, ...cuts.map((cut) => cut % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b);
  const scanner = new RawFrameScanner();
  const relayed: Buffer[] = [];
  const marked: string[] = [];
  let frames = 0;
  for (let index = 1; index < points.length; index += 1) {
    const region = scanner.push(bytes.subarray(points[index - 1], points[index]));
    if (region === null) throw new Error('no CR in these streams');
    relayed.push(region.bytes);
    frames += region.frames;
    for (const frame of region.marked) {
      expect(region.bytes.toString('utf8', frame.start, frame.end)).toBe(frame.raw);
      marked.push(frame.raw);
    }
  }
  return {
    relayed: Buffer.concat(relayed).toString('utf8'),
    frames,
    marked,
    held: scanner.takePending().toString('utf8'),
  };
}

/** The text splitter's framing: a frame ends at the first blank line after its start; the rest waits. */
function reference(text: string): { frames: string[]; rest: string } {
  const frames: string[] = [];
  let start = 0;
  for (let at = text.indexOf('\n\n', start); at !== -1; at = text.indexOf('\n\n', start)) {
    frames.push(text.slice(start, at + 2));
    start = at + 2;
  }
  return { frames, rest: text.slice(start) };
}

describe('RawFrameScanner', () => {
  it('marks exactly the frames a marker check would act on, wherever the bytes are cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...frames), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (stream, cuts) => {
          const text = stream.join('');
          const { relayed, frames, marked, held } = scan(text, cuts);
          const expected = reference(text);
          expect(relayed).toBe(expected.frames.join(''));
          expect(frames).toBe(expected.frames.length);
          expect(held).toBe(expected.rest);
          expect(marked).toEqual(expected.frames.filter(matters));
        },
      ),
    );
  });

  it('does not mark a chunk whose every frame says "usage":null', () => {
    const { marked } = scan(frames[0].repeat(20), [37, 400]);
    expect(marked).toEqual([]);
  });

  it('holds a last frame without its blank line back for the next chunk', () => {
    const { relayed, marked, held } = scan(`${frames[5]}data: [DO`, []);
    expect(relayed).toBe(frames[5]);
    expect(marked).toEqual([frames[5]]);
    expect(held).toBe('data: [DO');
  });

  it('finds frame boundaries front to back when three newlines run together', () => {
    const text = `${frames[1]}\n${frames[5]}`;
    const { relayed, marked } = scan(text, []);
    expect(relayed).toBe(text);
    expect(marked).toEqual([`\n${frames[5]}`]);
  });
});
