import { describe, expect, it } from 'vitest';
import { toSeatChatBody } from './responses-envelope.js';

describe('toSeatChatBody (seat lane)', () => {
  it('translates a Responses-style envelope and drops store, previous_response_id and truncation', () => {
    const chat = toSeatChatBody({
      instructions: 'Be terse.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'weather?' }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object' } }],
      max_output_tokens: 200,
      store: true,
      previous_response_id: 'resp_1',
      truncation: 'auto',
      temperature: 0.2,
    });
    expect(chat).toEqual({
      model: 'gw-default',
      temperature: 0.2,
      max_tokens: 200,
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
      tools: [
        { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' } } },
      ],
    });
  });

  it('keeps a chat body, nesting flat tools and filling a missing model', () => {
    expect(
      toSeatChatBody({ messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', name: 'x' }] }),
    ).toEqual({
      model: 'gw-default',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'x' } }],
    });
    expect(toSeatChatBody({ model: 'gpt-4.1', input: 'hello' })).toEqual({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'hello' }],
    });
  });
});
