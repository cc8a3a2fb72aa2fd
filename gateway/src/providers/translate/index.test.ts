import { describe, expect, it } from 'vitest';
import { parseSse, pickTranslator, serializeSseFrames, type SseFrame } from './index.js';

const clock = { now: () => Date.UTC(2026, 0, 15, 12, 0, 0) };

describe('pickTranslator', () => {
  it.each([
    ['chat-completions', 'openai', 'passthrough'],
    ['chat-completions', 'anthropic', 'translate'],
    ['messages', 'openai', 'translate'],
    ['messages', 'anthropic', 'passthrough'],
  ] as const)('carries %s clients to %s providers by %s', (clientFormat, backendFamily, kind) => {
    expect(pickTranslator(clientFormat, backendFamily)).toMatchObject({ kind, clientFormat, backendFamily });
  });

  it('translates a chat-completions call to a Messages provider end to end: request, stream and usage', () => {
    const lane = pickTranslator('chat-completions', 'anthropic');
    if (lane.kind !== 'translate') throw new Error('expected a translating lane');
    const { body, context } = lane.translateRequest(
      {
        model: 'claude-sonnet-4-5',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
        stream_options: { include_usage: true },
      },
      { defaultMaxTokens: 1024 },
    );
    expect(body).toStrictEqual({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 1024,
      stream: true,
    });
    const stream = lane.createStreamTranslator(context, { clock });
    const upstream = parseSse(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_01","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":8,"output_tokens":1}}}\n\n' +
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}\n\n' +
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}\n\n' +
        'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
    const out: SseFrame[] = [];
    for (const frame of upstream) out.push(...stream.push(frame));
    out.push(...stream.end());
    expect(out.map((frame) => frame.data).at(-1)).toBe('[DONE]');
    expect(serializeSseFrames(out)).toContain('"delta":{"content":"Hello"}');
    expect(stream.usage()).toStrictEqual({ inputTokens: 8, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('relays a provider error in the client’s envelope, type unchanged', () => {
    const toMessagesClient = pickTranslator('messages', 'openai');
    const toChatClient = pickTranslator('chat-completions', 'anthropic');
    if (toMessagesClient.kind !== 'translate' || toChatClient.kind !== 'translate')
      throw new Error('expected translating lanes');
    expect(
      toMessagesClient.translateError(
        { error: { message: 'Bad model', type: 'invalid_request_error', code: 'model_not_found' } },
        404,
      ),
    ).toStrictEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'Bad model' },
    });
    expect(
      toChatClient.translateError({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 529),
    ).toStrictEqual({
      error: { message: 'Overloaded', type: 'overloaded_error', param: null, code: null },
    });
  });

  it('meters same-family traffic from the untouched body and stream', () => {
    const lane = pickTranslator('messages', 'anthropic');
    if (lane.kind !== 'passthrough') throw new Error('expected a passthrough lane');
    expect(
      lane.extractUsage({ usage: { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 10 } }),
    ).toStrictEqual({
      inputTokens: 13,
      outputTokens: 4,
      cacheReadTokens: 10,
      cacheWriteTokens: 0,
    });
    const tracker = lane.createStreamUsageTracker();
    tracker.observe({
      event: 'message_start',
      data: '{"type":"message_start","message":{"usage":{"input_tokens":3,"output_tokens":1}}}',
    });
    tracker.observe({ event: 'message_delta', data: '{"type":"message_delta","usage":{"output_tokens":7}}' });
    expect(tracker.usage()).toStrictEqual({ inputTokens: 3, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});
