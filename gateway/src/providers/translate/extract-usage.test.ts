import { describe, expect, it } from 'vitest';
import { AnthropicStreamUsageTracker, extractAnthropicUsage } from './extract-anthropic-usage.js';
import { extractOpenAiUsage, OpenAiStreamUsageTracker } from './extract-openai-usage.js';
import { parseSse } from './sse.js';
import { totalTokens, uncachedInputTokens } from './usage.js';

describe('OpenAI-family usage (passthrough lane)', () => {
  it('reads a chat completion: cached tokens are part of prompt_tokens, reasoning part of completion_tokens', () => {
    const usage = extractOpenAiUsage({
      id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      usage: {
        prompt_tokens: 2006,
        completion_tokens: 300,
        total_tokens: 2306,
        prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 192 },
      },
    });
    expect(usage).toStrictEqual({
      inputTokens: 2006,
      outputTokens: 300,
      cacheReadTokens: 1920,
      cacheWriteTokens: 0,
      reasoningTokens: 192,
    });
    expect(totalTokens(usage!)).toBe(2306);
    expect(uncachedInputTokens(usage!)).toBe(86);
  });

  it('reads an embeddings response, which has no completion tokens', () => {
    expect(extractOpenAiUsage({ object: 'list', usage: { prompt_tokens: 8, total_tokens: 8 } })).toStrictEqual({
      inputTokens: 8,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it('reads a Responses API body', () => {
    expect(
      extractOpenAiUsage({
        object: 'response',
        usage: {
          input_tokens: 328,
          input_tokens_details: { cached_tokens: 128 },
          output_tokens: 52,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 380,
        },
      }),
    ).toStrictEqual({
      inputTokens: 328,
      outputTokens: 52,
      cacheReadTokens: 128,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('reports nothing for a body without usage, and treats null or junk counts as zero', () => {
    expect(extractOpenAiUsage({ id: 'x' })).toBeUndefined();
    expect(extractOpenAiUsage('not json')).toBeUndefined();
    expect(extractOpenAiUsage({ usage: { prompt_tokens: null, completion_tokens: -3 } })).toStrictEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it('finds the final usage chunk of a stream and ignores chunks with usage: null', () => {
    const tracker = new OpenAiStreamUsageTracker();
    const frames = parseSse(
      'data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"Hi"}}],"usage":null}\n\n' +
        'data: {"id":"chatcmpl-1","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}\n\n' +
        'data: [DONE]\n\n',
    );
    expect(tracker.usage()).toBeUndefined();
    for (const frame of frames) tracker.observe(frame);
    expect(tracker.usage()).toStrictEqual({
      inputTokens: 12,
      outputTokens: 3,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });
});

describe('Anthropic-family usage (passthrough lane)', () => {
  it('adds cache reads and writes to the uncached input tokens', () => {
    const usage = extractAnthropicUsage({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      usage: { input_tokens: 12, cache_creation_input_tokens: 1840, cache_read_input_tokens: 20480, output_tokens: 95 },
    });
    expect(usage).toStrictEqual({
      inputTokens: 22332,
      outputTokens: 95,
      cacheReadTokens: 20480,
      cacheWriteTokens: 1840,
    });
    expect(uncachedInputTokens(usage!)).toBe(12);
  });

  it('takes input from message_start and cumulative output from the last message_delta, never adding deltas', () => {
    const tracker = new AnthropicStreamUsageTracker();
    const frames = parseSse(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":472,"cache_creation_input_tokens":1203,"cache_read_input_tokens":0,"output_tokens":2}}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"usage"}}\n\n' +
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":null},"usage":{"output_tokens":40}}\n\n' +
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"input_tokens":480,"output_tokens":71,"cache_read_input_tokens":null}}\n\n',
    );
    for (const frame of frames) tracker.observe(frame);
    expect(tracker.usage()).toStrictEqual({
      inputTokens: 1683,
      outputTokens: 71,
      cacheReadTokens: 0,
      cacheWriteTokens: 1203,
    });
  });

  it('recognises usage events in a stream whose frames carry no event names', () => {
    const tracker = new AnthropicStreamUsageTracker();
    for (const frame of parseSse(
      'data: {"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}}\n\ndata: {"type":"message_delta","usage":{"output_tokens":9}}\n\n',
    )) {
      tracker.observe(frame);
    }
    expect(tracker.usage()).toStrictEqual({ inputTokens: 5, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});
