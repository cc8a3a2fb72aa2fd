import { describe, expect, it } from 'vitest';
import type { TranslationContext } from '../translator.js';
import { MessagesEventsToChatChunks, type ChatStreamOutput } from './stream.js';

const clock = { now: () => Date.UTC(2026, 0, 15, 12, 0, 0) };
const context: TranslationContext = { stream: true, includeUsage: true, requestModel: 'claude-sonnet-4-5' };
const messageStart = {
  type: 'message_start',
  message: {
    id: 'msg_01PbGu3kLyyV9Zr3pkRJoH2X',
    model: 'claude-sonnet-4-5-20250929',
    usage: { input_tokens: 9, output_tokens: 1 },
  },
};

describe('Messages events → chat.completion.chunk objects', () => {
  it('reports an error object when the provider’s first event is an error', () => {
    const converter = new MessagesEventsToChatChunks(context, { clock });
    expect(converter.push({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toStrictEqual(
      [
        {
          kind: 'error',
          error: { error: { message: 'Overloaded', type: 'overloaded_error', param: null, code: null } },
        },
      ],
    );
    expect(converter.push(messageStart)).toStrictEqual([]);
    expect(converter.end()).toStrictEqual([]);
  });

  it('reports an error when content arrives before message_start', () => {
    const converter = new MessagesEventsToChatChunks(context, { clock });
    const [output] = converter.push({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'Hi' },
    });
    expect(output).toMatchObject({ kind: 'error', error: { error: { code: 'upstream_stream_incomplete' } } });
  });

  it('ends without a usage chunk when the client did not ask for usage, but still reports usage for metering', () => {
    const converter = new MessagesEventsToChatChunks({ ...context, includeUsage: false }, { clock });
    converter.push(messageStart);
    converter.push({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } });
    expect(converter.push({ type: 'message_stop' })).toStrictEqual([{ kind: 'done' }]);
    expect(converter.usage()).toStrictEqual({
      inputTokens: 9,
      outputTokens: 4,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it('gives a tool call that streamed no argument text "{}" once, before the finish chunk, even when its block never closed', () => {
    const converter = new MessagesEventsToChatChunks({ ...context, includeUsage: false }, { clock });
    converter.push(messageStart);
    converter.push({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_01', name: 'get_time', input: {} },
    });
    expect(
      converter.push({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } }),
    ).toStrictEqual([]);
    const deltas = (outputs: ChatStreamOutput[]) =>
      outputs.map((output) => output.kind === 'chunk' && output.chunk.choices[0]);
    expect(
      deltas(
        converter.push({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }),
      ),
    ).toStrictEqual([
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, function: { arguments: '{}' } }] },
        logprobs: null,
        finish_reason: null,
      },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' },
    ]);
    expect(converter.push({ type: 'content_block_stop', index: 0 })).toStrictEqual([]);
  });

  it('ignores unknown event types, citations and signature deltas, and blocks it does not map', () => {
    const converter = new MessagesEventsToChatChunks(context, { clock });
    converter.push(messageStart);
    expect(
      converter.push({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search' },
      }),
    ).toStrictEqual([]);
    expect(
      converter.push({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"query":' },
      }),
    ).toStrictEqual([]);
    expect(
      converter.push({ type: 'content_block_delta', index: 1, delta: { type: 'citations_delta', citation: {} } }),
    ).toStrictEqual([]);
    expect(converter.push({ type: 'a_new_event_type' })).toStrictEqual([]);
  });
});
