import { describe, expect, it } from 'vitest';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { errorTypeForStatus, fallbackErrorMessage } from './map-error-type.js';
import { mapOpenAiFinishReason } from './map-openai-finish-reason.js';

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['a_reason_from_next_year', 'stop'],
    [null, null],
    [undefined, null],
  ] as const)('maps %s to %s', (stopReason, finishReason) => {
    expect(mapAnthropicStopReason(stopReason)).toBe(finishReason);
  });
});

describe('mapOpenAiFinishReason', () => {
  it.each([
    ['stop', false, 'end_turn'],
    ['length', false, 'max_tokens'],
    ['tool_calls', true, 'tool_use'],
    ['function_call', true, 'tool_use'],
    ['content_filter', false, 'refusal'],
    ['stop', true, 'tool_use'],
    ['length', true, 'max_tokens'],
    ['eos', false, 'end_turn'],
    [null, false, null],
  ] as const)('maps %s (tool calls: %s) to %s', (finishReason, hasToolCalls, stopReason) => {
    expect(mapOpenAiFinishReason(finishReason, hasToolCalls)).toBe(stopReason);
  });
});

describe('errorTypeForStatus', () => {
  it.each([
    [400, 'invalid_request_error', 'invalid_request_error'],
    [401, 'authentication_error', 'authentication_error'],
    [403, 'permission_error', 'permission_error'],
    [404, 'not_found_error', 'not_found_error'],
    [413, 'invalid_request_error', 'request_too_large'],
    [429, 'rate_limit_error', 'rate_limit_error'],
    [500, 'server_error', 'api_error'],
    [529, 'server_error', 'overloaded_error'],
  ] as const)('HTTP %i reads as %s to chat clients and %s to Messages clients', (status, openai, anthropic) => {
    expect(errorTypeForStatus(status, 'openai')).toBe(openai);
    expect(errorTypeForStatus(status, 'anthropic')).toBe(anthropic);
  });

  it('carries at most 500 characters of an untyped error body into the message', () => {
    expect(fallbackErrorMessage('x'.repeat(2000), 502)).toHaveLength(500);
    expect(fallbackErrorMessage({ message: 'upstream said no' }, 400)).toBe('upstream said no');
    expect(fallbackErrorMessage(undefined, 504)).toBe('The provider answered HTTP 504.');
  });
});
