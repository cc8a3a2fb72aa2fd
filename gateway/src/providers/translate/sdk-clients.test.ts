import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { translateMessagesResponseToChat } from './chat-to-messages/response.js';
import { createChatToMessagesStreamTranslator } from './chat-to-messages/stream.js';
import { loadGoldenCases, runRecordedStream } from './golden-cases.js';
import { translateChatResponseToMessages } from './messages-to-chat/response.js';
import { createMessagesToChatStreamTranslator } from './messages-to-chat/stream.js';
import type { TranslationContext } from './translator.js';

/**
 * What a developer's SDK sees: the official OpenAI and Anthropic clients, pointed at a fetch that answers
 * with our translated output, must accumulate it into the message the provider meant.
 */
const clock = { now: () => Date.UTC(2026, 0, 15, 12, 0, 0) };
const toClaude: TranslationContext = { stream: true, includeUsage: true, requestModel: 'claude-sonnet-4-5' };
const toGpt: TranslationContext = { stream: true, includeUsage: true, requestModel: 'gpt-4.1' };

function fixture(direction: string, name: string, suffix: string): string {
  const found = loadGoldenCases(direction).find((testCase) => testCase.name === name);
  const text = found?.text(suffix);
  if (text === undefined) throw new Error(`missing fixture ${direction}/${name}.${suffix}`);
  return text;
}

function answering(body: string, contentType: string): typeof fetch {
  return async () => new Response(body, { status: 200, headers: { 'content-type': contentType } });
}

function openAiClient(body: string, contentType: string): OpenAI {
  return new OpenAI({
    apiKey: 'ark_test',
    baseURL: 'http://gateway.test/v1',
    maxRetries: 0,
    fetch: answering(body, contentType),
  });
}

function anthropicClient(body: string, contentType: string): Anthropic {
  return new Anthropic({
    apiKey: 'ark_test',
    baseURL: 'http://gateway.test',
    maxRetries: 0,
    fetch: answering(body, contentType),
  });
}

const chatParams = {
  model: 'claude-sonnet-4-5',
  messages: [{ role: 'user' as const, content: 'Look up order 4411-AZ.' }],
};
const messagesParams = {
  model: 'gpt-4.1',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'Look up order 4411-AZ.' }],
};

describe('the OpenAI SDK reading a Messages provider through the gateway', () => {
  it('accumulates a streamed answer with parallel tool calls and the final usage chunk', async () => {
    const translated = runRecordedStream(
      createChatToMessagesStreamTranslator(toClaude, { clock }),
      fixture('chat-to-messages', 'stream-tool-calls', 'input.sse'),
    );
    const stream = openAiClient(translated, 'text/event-stream').chat.completions.stream({
      ...chatParams,
      stream_options: { include_usage: true },
    });
    const completion = await stream.finalChatCompletion();
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(
      completion.choices[0]?.message.tool_calls?.map(
        (call) => call.type === 'function' && [call.id, call.function.name, JSON.parse(call.function.arguments)],
      ),
    ).toStrictEqual([
      ['toolu_01T1x1fJ34qAmk2tNTrN7Up6', 'get_weather', { city: 'Lisbon' }],
      ['toolu_01Nw5rT8qK2VfLj9XcPz4HsB', 'get_weather', { city: 'Porto' }],
    ]);
    expect(completion.usage).toMatchObject({
      prompt_tokens: 2446,
      completion_tokens: 89,
      total_tokens: 2535,
      prompt_tokens_details: { cached_tokens: 2048 },
    });
  });

  it('accumulates text followed by a tool call', async () => {
    const translated = runRecordedStream(
      createChatToMessagesStreamTranslator(toClaude, { clock }),
      fixture('chat-to-messages', 'stream-text-then-tool', 'input.sse'),
    );
    const completion = await openAiClient(translated, 'text/event-stream')
      .chat.completions.stream(chatParams)
      .finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe('Let me look that order up.');
    expect(completion.choices[0]?.message.tool_calls).toHaveLength(1);
  });

  it('runs a streamed tool call without parameters through runTools, which parses its arguments as JSON', async () => {
    const translated = runRecordedStream(
      createChatToMessagesStreamTranslator(toClaude, { clock }),
      fixture('chat-to-messages', 'stream-tool-without-parameters', 'input.sse'),
    );
    const replies = [
      translated,
      'data: {"id":"msg_2","object":"chat.completion.chunk","created":1,"model":"claude-sonnet-4-5","choices":[{"index":0,"delta":{"role":"assistant","content":"Noon in Lisbon."},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    ];
    const client = new OpenAI({
      apiKey: 'ark_test',
      baseURL: 'http://gateway.test/v1',
      maxRetries: 0,
      fetch: async () => new Response(replies.shift(), { headers: { 'content-type': 'text/event-stream' } }),
    });
    const seen: unknown[] = [];
    const tool = (name: string) => ({
      type: 'function' as const,
      function: {
        name,
        description: name,
        parameters: { type: 'object', properties: {} },
        parse: (text: string): unknown => JSON.parse(text),
        function: (input: unknown) => {
          seen.push(input);
          return 'ok';
        },
      },
    });
    const runner = client.chat.completions.runTools({
      ...chatParams,
      stream: true,
      tools: [tool('get_current_time'), tool('get_weather')],
    });
    expect(await runner.finalContent()).toBe('Noon in Lisbon.');
    expect(seen).toStrictEqual([{}, { city: 'Lisbon' }]);
  });

  it('surfaces a mid-stream provider error as an APIError', async () => {
    const translated = runRecordedStream(
      createChatToMessagesStreamTranslator(toClaude, { clock }),
      fixture('chat-to-messages', 'stream-error', 'input.sse'),
    );
    const stream = await openAiClient(translated, 'text/event-stream').chat.completions.create({
      ...chatParams,
      stream: true,
    });
    const read = async (): Promise<void> => {
      for await (const _chunk of stream) {
        // drain
      }
    };
    await expect(read()).rejects.toMatchObject({ message: expect.stringContaining('Overloaded') as unknown });
  });

  it('reads a translated JSON completion', async () => {
    const { body } = translateMessagesResponseToChat(
      JSON.parse(fixture('chat-to-messages', 'response-parallel-tool-calls', 'input.json')),
      toClaude,
      { clock },
    );
    const completion = await openAiClient(JSON.stringify(body), 'application/json').chat.completions.create(chatParams);
    expect(completion.choices[0]?.message.tool_calls).toHaveLength(2);
    expect(completion.usage?.total_tokens).toBe(530);
  });
});

describe('the Anthropic SDK reading an OpenAI-family provider through the gateway', () => {
  it('accumulates streamed text then a tool call into content blocks, with usage from message_delta', async () => {
    const translated = runRecordedStream(
      createMessagesToChatStreamTranslator(toGpt),
      fixture('messages-to-chat', 'stream-text-then-tool', 'input.sse'),
    );
    const message = await anthropicClient(translated, 'text/event-stream')
      .messages.stream(messagesParams)
      .finalMessage();
    expect(message.content).toStrictEqual([
      { type: 'text', text: 'Let me look that order up.' },
      { type: 'tool_use', id: 'call_Qm3tZr8YwXv2Kp5Ls9Nd1Fh4', name: 'lookup_order', input: { reference: '4411-AZ' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({
      input_tokens: 139,
      output_tokens: 31,
      cache_read_input_tokens: 1536,
      cache_creation_input_tokens: 0,
    });
  });

  it('accumulates parallel tool calls into separate blocks', async () => {
    const translated = runRecordedStream(
      createMessagesToChatStreamTranslator(toGpt),
      fixture('messages-to-chat', 'stream-parallel-tool-calls', 'input.sse'),
    );
    const message = await anthropicClient(translated, 'text/event-stream')
      .messages.stream(messagesParams)
      .finalMessage();
    expect(message.content.map((block) => block.type === 'tool_use' && block.input)).toStrictEqual([
      { city: 'Lisbon' },
      { city: 'Porto' },
    ]);
  });

  it('starts a stream that opens with an Azure prompt-filter chunk with the real message id and model', async () => {
    const translated = runRecordedStream(
      createMessagesToChatStreamTranslator(toGpt, { clock }),
      fixture('messages-to-chat', 'stream-azure-prompt-filter', 'input.sse'),
    );
    const message = await anthropicClient(translated, 'text/event-stream')
      .messages.stream(messagesParams)
      .finalMessage();
    expect(message).toMatchObject({
      id: 'chatcmpl-CA7tXk2LmQ9vRbN4sEwYz1HpJ0fUd',
      model: 'gpt-4.1-2025-04-14',
      content: [{ type: 'text', text: 'Hello there.' }],
    });
  });

  it('surfaces a mid-stream provider error', async () => {
    const translated = runRecordedStream(
      createMessagesToChatStreamTranslator(toGpt),
      fixture('messages-to-chat', 'stream-error', 'input.sse'),
    );
    await expect(
      anthropicClient(translated, 'text/event-stream').messages.stream(messagesParams).finalMessage(),
    ).rejects.toThrow(/server had an error/);
  });

  it('reads a translated JSON message', async () => {
    const { body } = translateChatResponseToMessages(
      JSON.parse(fixture('messages-to-chat', 'response-usage-cache', 'input.json')),
      toGpt,
    );
    const message = await anthropicClient(JSON.stringify(body), 'application/json').messages.create(messagesParams);
    expect(message.content).toStrictEqual([{ type: 'text', text: 'Looks good: the constant change is isolated.' }]);
    expect(message.usage).toMatchObject({ input_tokens: 1852, cache_read_input_tokens: 20480, output_tokens: 95 });
  });
});
