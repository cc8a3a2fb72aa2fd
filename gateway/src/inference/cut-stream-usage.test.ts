import { describe, expect, it } from 'vitest';
import { countEvents, usageOfCutStream } from './cut-stream-usage.js';

describe('countEvents', () => {
  const frames = 'data: {"a":1}\n\ndata: {"b":2}\n\nevent: ping\ndata: {}\n\n';

  it('counts the blank-line-terminated events of a chunk, as text or as bytes alike', () => {
    expect(countEvents(frames)).toBe(3);
    expect(countEvents(Buffer.from(frames))).toBe(3);
  });

  it('does not count a frame still missing its blank line, nor an empty chunk', () => {
    expect(countEvents('data: {"a":1}\n\ndata: {"b"')).toBe(1);
    expect(countEvents(Buffer.from('data: {"b":2}\n'))).toBe(0);
    expect(countEvents('')).toBe(0);
    expect(countEvents(Buffer.alloc(0))).toBe(0);
  });

  it('counts each blank line once in a run of line breaks', () => {
    expect(countEvents('data: 1\n\n\n\ndata: 2\n\n')).toBe(3);
    expect(countEvents(Buffer.from('data: 1\n\n\n\ndata: 2\n\n'))).toBe(3);
  });
});

describe('usageOfCutStream', () => {
  it('estimates the prompt at four characters a token and the output at one token per content event', () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(400) }] };
    const usage = usageOfCutStream(undefined, body, 7);
    expect(usage.inputTokens).toBe(Math.ceil(JSON.stringify(body).length / 4));
    expect(usage.outputTokens).toBe(7);
    expect(usage).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('keeps what the provider did report over the estimate', () => {
    const reported = {
      inputTokens: 1234,
      outputTokens: 20,
      cacheReadTokens: 1000,
      cacheWriteTokens: 5,
      reasoningTokens: 3,
    };
    expect(usageOfCutStream(reported, { messages: [] }, 4)).toEqual(reported);
    expect(usageOfCutStream({ ...reported, outputTokens: 2 }, { messages: [] }, 9).outputTokens).toBe(9);
  });
});
