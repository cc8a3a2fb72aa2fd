import { describe, expect, it } from 'vitest';
import { TranslationError } from '../translation-error.js';
import { translateMessagesRequestToChat } from './request.js';

const base = { model: 'gpt-4.1', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }] };

function failure(body: unknown): TranslationError {
  try {
    translateMessagesRequestToChat(body);
  } catch (error) {
    if (error instanceof TranslationError) return error;
    throw error;
  }
  throw new Error('expected the translation to fail');
}

describe('Messages request → chat-completions request', () => {
  it('asks for a final usage chunk whenever it streams, since metering needs usage on every call', () => {
    const { body, context } = translateMessagesRequestToChat({ ...base, stream: true });
    expect(body.stream_options).toStrictEqual({ include_usage: true });
    expect(context).toStrictEqual({ stream: true, includeUsage: true, requestModel: 'gpt-4.1' });
  });

  it('requires max_tokens, as the Messages API does', () => {
    expect(failure({ model: 'gpt-4.1', messages: [] })).toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it.each([
    [
      'a provider-hosted tool',
      { ...base, tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] },
      'web_search_20250305',
    ],
    ['a provider-defined client tool', { ...base, tools: [{ type: 'bash_20250124', name: 'bash' }] }, 'bash_20250124'],
    [
      'a server tool block in the history',
      {
        ...base,
        messages: [
          {
            role: 'assistant',
            content: [{ type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: {} }],
          },
        ],
      },
      'server_tool_use',
    ],
    [
      'a document by URL',
      {
        ...base,
        messages: [
          { role: 'user', content: [{ type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } }] },
        ],
      },
      'Document URLs',
    ],
  ])('refuses %s with a 400 that says what cannot cross', (_label, body, fragment) => {
    const error = failure(body);
    expect(error).toMatchObject({ code: 'unsupported_feature', status: 400 });
    expect(error.message).toContain(fragment);
  });

  it('rejects a block that lacks its required fields, naming it', () => {
    const error = failure({
      ...base,
      messages: [{ role: 'assistant', content: [{ type: 'tool_use', name: 'get_weather', input: {} }] }],
    });
    expect(error).toMatchObject({ code: 'invalid_request' });
    expect(error.message).toContain('tool_use');
  });

  it('turns a user turn made only of tool results into tool messages with no empty user message', () => {
    const { body } = translateMessagesRequestToChat({
      ...base,
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'ok' }] }],
    });
    expect(body.messages).toStrictEqual([{ role: 'tool', tool_call_id: 'toolu_01', content: 'ok' }]);
  });

  it('marks a failed tool result that carries no text as an error too', () => {
    const { body } = translateMessagesRequestToChat({
      ...base,
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', is_error: true }] }],
    });
    expect(body.messages).toStrictEqual([{ role: 'tool', tool_call_id: 'toolu_01', content: 'Error' }]);
  });
});
