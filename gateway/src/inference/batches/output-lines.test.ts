import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OutputLineReader } from './output-lines.js';

const key = (customId: string) => `id:${createHash('sha256').update(customId).digest('hex').slice(0, 32)}`;
const line = (customId: string | null, promptTokens: number, model = 'gpt-4o-mini') =>
  JSON.stringify({
    id: 'batch_req_1',
    ...(customId === null ? {} : { custom_id: customId }),
    response: { status_code: 200, body: { model, usage: { prompt_tokens: promptTokens, completion_tokens: 2 } } },
    error: null,
  });

function read(chunks: Buffer[], complete = true): OutputLineReader {
  const reader = new OutputLineReader();
  for (const chunk of chunks) reader.push(chunk);
  if (complete) reader.end();
  return reader;
}

describe('reading a batch output file for its usage', () => {
  it('reads one line per request whatever the chunk boundaries, a last line without a newline included', () => {
    const file = Buffer.from(`${line('a', 10)}\n\n${line('b', 20)}\n${line(null, 30, 'gpt-4o')}`);
    const whole = read([file]);
    // One byte at a time: every boundary falls inside a line, and inside a multi-byte character's neighbours.
    const bytewise = read([...file].map((byte) => Buffer.from([byte])));
    for (const reader of [whole, bytewise]) {
      expect(reader.lines).toEqual([
        {
          lineKey: key('a'),
          status: 200,
          model: 'gpt-4o-mini',
          usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
        },
        {
          lineKey: key('b'),
          status: 200,
          model: 'gpt-4o-mini',
          usage: { inputTokens: 20, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
        },
        {
          lineKey: '#2',
          status: 200,
          model: 'gpt-4o',
          usage: { inputTokens: 30, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
        },
      ]);
      expect(reader.skipped).toBe(0);
    }
  });

  it('bills nothing for a line that is not a JSON object, and keeps positions counting past it', () => {
    const reader = read([Buffer.from(`not json\n[1]\n${line(null, 5)}\n`)]);
    expect(reader.skipped).toBe(2);
    expect(reader.lines.map((entry) => entry.lineKey)).toEqual(['#2']);
  });

  it('leaves the half line of a download cut short unread until the file is read whole', () => {
    const text = `${line('a', 10)}\n${line('b', 20)}\n`;
    const cut = read([Buffer.from(text.slice(0, text.length - 20))], false);
    expect(cut.lines.map((entry) => entry.lineKey)).toEqual([key('a')]);
  });

  it('does not hold a line longer than its limit, and reads the next line normally', () => {
    const reader = new OutputLineReader();
    const piece = Buffer.alloc(1024 * 1024, 0x61);
    for (let index = 0; index < 17; index += 1) reader.push(piece);
    reader.push(Buffer.from(`\n${line('after', 7)}\n`));
    reader.end();
    expect(reader.skipped).toBe(1);
    expect(reader.lines.map((entry) => entry.lineKey)).toEqual([key('after')]);
  });
});
