import { describe, expect, it } from 'vitest';
import { answerAsStream } from './answer-as-stream.js';

const decoded = (frames: ReturnType<typeof answerAsStream>) =>
  frames.map((frame) => (frame.data === '[DONE]' ? '[DONE]' : (JSON.parse(frame.data) as Record<string, unknown>)));

describe('answerAsStream', () => {
  it('tells each choice in its own chunks, and the usage chunk only when the client asked for it', () => {
    const completion = {
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'A' }, finish_reason: 'stop' },
        { index: 1, message: { role: 'assistant', content: 'B' }, finish_reason: 'length' },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    };
    const without = decoded(answerAsStream('chat-completions', completion, { includeUsage: false }));
    expect(without.at(-1)).toBe('[DONE]');
    expect(without.filter((chunk) => typeof chunk === 'object' && 'usage' in chunk)).toEqual([]);
    const finishes = without
      .flatMap((chunk) =>
        typeof chunk === 'object' ? (chunk.choices as Array<{ index: number; finish_reason: string | null }>) : [],
      )
      .filter((choice) => choice.finish_reason !== null);
    expect(finishes).toEqual([
      expect.objectContaining({ index: 0, finish_reason: 'stop' }),
      expect.objectContaining({ index: 1, finish_reason: 'length' }),
    ]);
    const withUsage = decoded(answerAsStream('chat-completions', completion, { includeUsage: true }));
    expect(withUsage.at(-2)).toMatchObject({ object: 'chat.completion.chunk', choices: [], usage: completion.usage });
  });

  it('streams thinking with its signature, and passes blocks it has no delta form for whole', () => {
    const frames = answerAsStream(
      'messages',
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude',
        content: [
          { type: 'thinking', thinking: 'Consider.', signature: 'sig==' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Done.' },
        ],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 7 },
      },
      { includeUsage: false },
    );
    expect(frames.map((frame) => frame.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const events = decoded(frames) as Array<Record<string, unknown>>;
    expect(events[0]).toMatchObject({
      message: { content: [], stop_reason: null, usage: { input_tokens: 5, output_tokens: 0 } },
    });
    expect(events[3]).toMatchObject({ delta: { type: 'signature_delta', signature: 'sig==' } });
    expect(events[5]).toMatchObject({ content_block: { type: 'redacted_thinking', data: 'opaque' } });
    expect(events[10]).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } });
  });
});
