import { describe, expect, it } from 'vitest';
import { TranslationError } from '../translation-error.js';
import { translateChatRequestToMessages } from './request.js';

const base = { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hi' }] };

function failure(body: unknown): TranslationError {
  try {
    translateChatRequestToMessages(body);
  } catch (error) {
    if (error instanceof TranslationError) return error;
    throw error;
  }
  throw new Error('expected the translation to fail');
}

describe('chat-completions request → Messages request', () => {
  it('fills max_tokens from the configured default when the client sets none', () => {
    expect(translateChatRequestToMessages(base).body.max_tokens).toBe(4096);
    expect(translateChatRequestToMessages(base, { defaultMaxTokens: 8192 }).body.max_tokens).toBe(8192);
  });

  it('adds the thinking budget on top of the default limit so the answer keeps its room', () => {
    const { body } = translateChatRequestToMessages({ ...base, reasoning_effort: 'high' }, { defaultMaxTokens: 1000 });
    expect(body.thinking).toStrictEqual({ type: 'enabled', budget_tokens: 16384 });
    expect(body.max_tokens).toBe(17384);
  });

  it('remembers what the response side needs: stream, include_usage and the requested model', () => {
    expect(
      translateChatRequestToMessages({ ...base, stream: true, stream_options: { include_usage: true } }).context,
    ).toStrictEqual({
      stream: true,
      includeUsage: true,
      requestModel: 'claude-sonnet-4-5',
    });
    expect(translateChatRequestToMessages(base).context).toStrictEqual({
      stream: false,
      includeUsage: false,
      requestModel: 'claude-sonnet-4-5',
    });
  });

  it('drops tool_choice and parallel_tool_calls when no tools are sent', () => {
    const { body } = translateChatRequestToMessages({
      ...base,
      tools: [],
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
  });

  it('drops empty messages, even a lone one: the provider judges the conversation that is left', () => {
    expect(
      translateChatRequestToMessages({ ...base, messages: [{ role: 'user', content: '' }] }).body.messages,
    ).toStrictEqual([]);
  });

  it('sends thinking again once the last assistant turn answered in text rather than calling tools', () => {
    const toolLoop = [
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ];
    const answered = [
      ...toolLoop,
      { role: 'assistant', content: 'Sunny.' },
      { role: 'user', content: 'And tomorrow?' },
    ];
    expect(
      translateChatRequestToMessages({ ...base, reasoning_effort: 'low', messages: toolLoop }).body,
    ).not.toHaveProperty('thinking');
    expect(
      translateChatRequestToMessages({ ...base, reasoning_effort: 'none', messages: toolLoop }).body.thinking,
    ).toStrictEqual({ type: 'disabled' });
    expect(
      translateChatRequestToMessages({ ...base, reasoning_effort: 'low', messages: answered }).body.thinking,
    ).toStrictEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('rejects a malformed body as the client’s error, naming the field', () => {
    const error = failure({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'narrator', content: 'Once upon a time' }],
    });
    expect(error).toMatchObject({ code: 'invalid_request', status: 400, retryable: false });
    expect(error.message).toContain('messages.0.role');
    expect(failure({ messages: [] })).toMatchObject({ code: 'invalid_request' });
    expect(failure('not an object')).toMatchObject({ code: 'invalid_request' });
  });

  it.each([
    ['several choices', { ...base, n: 2 }, 'n > 1'],
    [
      'audio input',
      {
        ...base,
        messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklGR', format: 'wav' } }] }],
      },
      'Audio',
    ],
    [
      'a file_id reference',
      {
        ...base,
        messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-6F2ksmvXxt4VdoqmHRw6kL' } }] }],
      },
      'file_id',
    ],
    [
      'a URL-encoded data URL',
      {
        ...base,
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/svg+xml,%3Csvg%3E' } }] },
        ],
      },
      'base64',
    ],
    [
      'an image type Messages does not read',
      {
        ...base,
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/bmp;base64,Qk0=' } }] },
        ],
      },
      'image/bmp',
    ],
  ])('refuses %s with a 400 that says what cannot cross', (_label, body, fragment) => {
    const error = failure(body);
    expect(error).toMatchObject({ code: 'unsupported_feature', status: 400 });
    expect(error.message).toContain(fragment);
  });

  it('rejects an image_url that is neither http(s) nor a data URL', () => {
    expect(
      failure({
        ...base,
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'file:///etc/passwd' } }] }],
      }),
    ).toMatchObject({
      code: 'invalid_request',
    });
  });

  it('sends a PDF link as a document', () => {
    const { body } = translateChatRequestToMessages({
      ...base,
      messages: [
        {
          role: 'user',
          content: [{ type: 'image_url', image_url: { url: 'https://example.com/spec.PDF?download=1' } }],
        },
      ],
    });
    expect(body.messages[0]?.content).toStrictEqual([
      { type: 'document', source: { type: 'url', url: 'https://example.com/spec.PDF?download=1' } },
    ]);
  });

  it('turns a JSON response_format into a forced json_response tool only where it can stand in for the format', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const forced = translateChatRequestToMessages({
      ...base,
      reasoning_effort: 'high',
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
    });
    expect(forced.body.tools).toEqual([expect.objectContaining({ name: 'json_response', input_schema: schema })]);
    expect(forced.body.tool_choice).toEqual({ type: 'tool', name: 'json_response' });
    // Messages refuses thinking with a forced tool: the format wins, as any forced tool does.
    expect(forced.body.thinking).toBeUndefined();
    expect(forced.context.jsonResponse).toBe(true);

    const arrayRoot = translateChatRequestToMessages({
      ...base,
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'array' } } },
    });
    expect(arrayRoot.body.tools).toBeUndefined();
    expect(
      translateChatRequestToMessages({ ...base, response_format: { type: 'text' } }).context.jsonResponse,
    ).toBeUndefined();
  });
});
