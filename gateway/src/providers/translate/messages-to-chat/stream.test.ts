import { describe, expect, it } from 'vitest';
import type { TranslationContext } from '../translator.js';
import { ChatChunksToMessagesEvents } from './stream.js';

const context: TranslationContext = { stream: true, includeUsage: true, requestModel: 'gpt-4.1' };

function chunk(delta: Record<string, unknown>, finishReason: string | null = null, usage: unknown = null): unknown {
  return {
    id: 'chatcmpl-BQrE1kNqg5vEwcAq8Xb3oFp2LmZs7',
    object: 'chat.completion.chunk',
    model: 'gpt-4.1-2025-04-14',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    usage,
  };
}

function types(events: { type: string; index?: number }[]): string[] {
  return events.map((event) => (event.index === undefined ? event.type : `${event.type}#${event.index}`));
}

describe('chat.completion.chunk objects → Messages events', () => {
  it('keeps a late argument fragment of an interleaved tool call on its own block index', () => {
    const converter = new ChatChunksToMessagesEvents(context);
    const events = [
      ...converter.push(
        chunk({
          tool_calls: [
            { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } },
          ],
        }),
      ),
      ...converter.push(
        chunk({
          tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } }],
        }),
      ),
      ...converter.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '"Lisbon"}' } }] })),
      ...converter.push(chunk({}, 'tool_calls')),
      ...converter.done(),
    ];
    expect(types(events)).toStrictEqual([
      'message_start',
      'content_block_start#0',
      'content_block_delta#0',
      'content_block_stop#0',
      'content_block_start#1',
      'content_block_delta#1',
      'content_block_delta#0',
      'content_block_stop#1',
      'message_delta',
      'message_stop',
    ]);
  });

  it('completes the message when the upstream closes after the finish chunk without sending [DONE]', () => {
    const converter = new ChatChunksToMessagesEvents(context);
    converter.push(chunk({ content: 'Hi' }));
    converter.push(chunk({}, 'stop', { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 }));
    const events = converter.end();
    expect(types(events)).toStrictEqual(['message_delta', 'message_stop']);
    expect(events[0]).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { input_tokens: 5, output_tokens: 1 },
    });
  });

  it('never starts a message with an empty id or model: it skips leading chunks with nothing in them and falls back after', () => {
    const converter = new ChatChunksToMessagesEvents(context, {
      clock: { now: () => Date.UTC(2026, 0, 15, 12, 0, 0) },
    });
    expect(converter.push({ choices: [], id: '', model: '', prompt_filter_results: [] })).toStrictEqual([]);
    const [start] = converter.push({ id: '', model: '', choices: [{ index: 0, delta: { content: 'Hi' } }] });
    expect(start).toMatchObject({ type: 'message_start', message: { id: 'msg_gw_mkfedmo0', model: 'gpt-4.1' } });
  });

  it('reports an error when the upstream closes before any chunk', () => {
    const converter = new ChatChunksToMessagesEvents(context);
    expect(converter.end()).toStrictEqual([
      {
        type: 'error',
        error: { type: 'api_error', message: 'The provider stream ended before the message was complete.' },
      },
    ]);
  });

  it('gives a tool call without an id a stable one and maps refusal deltas to text', () => {
    const converter = new ChatChunksToMessagesEvents(context);
    const events = [
      ...converter.push(chunk({ refusal: 'I can’t help with that.' })),
      ...converter.push(chunk({ tool_calls: [{ index: 0, function: { name: 'noop' } }] })),
    ];
    expect(events).toContainEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'I can’t help with that.' },
    });
    expect(events).toContainEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_gw_0', name: 'noop', input: {} },
    });
  });

  it('ignores choices other than the first and rejects a chunk that is not one', () => {
    const converter = new ChatChunksToMessagesEvents(context);
    const events = converter.push({
      id: 'chatcmpl-1',
      choices: [
        { index: 0, delta: { content: 'A' } },
        { index: 1, delta: { content: 'B' } },
      ],
    });
    expect(events).toContainEqual({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'A' } });
    expect(events).not.toContainEqual(expect.objectContaining({ delta: { type: 'text_delta', text: 'B' } }));
    expect(converter.push({ unexpected: true })).toStrictEqual([
      { type: 'error', error: { type: 'api_error', message: 'The provider sent an invalid chat.completion.chunk.' } },
    ]);
  });
});
