import { describe, expect, it } from 'vitest';
import { observeProviderFrame } from './realtime-events.js';

const frame = (event: unknown) => Buffer.from(JSON.stringify(event));

describe('observeProviderFrame', () => {
  it('reads a finished response’s usage, cached input tokens included', () => {
    const done = {
      type: 'response.done',
      event_id: 'e1',
      response: {
        id: 'resp_1',
        status: 'completed',
        usage: {
          total_tokens: 150,
          input_tokens: 120,
          output_tokens: 30,
          input_token_details: { cached_tokens: 64, audio_tokens: 0 },
        },
      },
    };
    expect(observeProviderFrame(frame(done))).toEqual({
      kind: 'response.done',
      responseId: 'resp_1',
      usage: { inputTokens: 120, outputTokens: 30, cacheReadTokens: 64, cacheWriteTokens: 0 },
    });
  });

  it('follows a response’s start, and a finished response without usage reads as unknown usage', () => {
    expect(observeProviderFrame(frame({ type: 'response.created', response: { id: 'resp_2', usage: null } }))).toEqual({
      kind: 'response.created',
      responseId: 'resp_2',
    });
    expect(observeProviderFrame(frame({ type: 'response.done', response: { id: 'resp_2', usage: null } }))).toEqual({
      kind: 'response.done',
      responseId: 'resp_2',
      usage: undefined,
    });
  });

  it('ignores every other event, a delta that merely mentions the marker, and frames that are not JSON', () => {
    expect(observeProviderFrame(frame({ type: 'response.output_audio.delta', delta: 'AAAA' }))).toBeNull();
    expect(
      observeProviderFrame(frame({ type: 'response.output_text.delta', delta: 'say "response.done" twice' })),
    ).toBeNull();
    expect(observeProviderFrame(Buffer.from('{"type":"response.done", broken'))).toBeNull();
    expect(
      observeProviderFrame(
        frame({ type: 'response.done', response: { usage: { input_tokens: -4, output_tokens: 'many' } } }),
      ),
    ).toEqual({
      kind: 'response.done',
      responseId: '',
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
  });
});
