import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions/completions';
import { describe, expect, it } from 'vitest';
import { translateChatRequestToMessages } from './chat-to-messages/request.js';
import { translateMessagesRequestToChat } from './messages-to-chat/request.js';
import type { ChatCompletionRequestOut } from './schemas/chat-completions.types.js';
import type { MessagesRequestOut } from './schemas/messages.types.js';

// Compile-time: what the translators emit is a request the official SDKs would build themselves.
const toAnthropic = (body: MessagesRequestOut): MessageCreateParamsBase => body;
const toOpenAi = (body: ChatCompletionRequestOut): ChatCompletionCreateParamsBase => body;

describe('translated requests', () => {
  it('type-check as official SDK request parameters', () => {
    const messages = toAnthropic(
      translateChatRequestToMessages({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hi' }] }).body,
    );
    const chat = toOpenAi(
      translateMessagesRequestToChat({ model: 'gpt-4.1', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
        .body,
    );
    expect(messages.max_tokens).toBe(4096);
    expect(chat.messages).toHaveLength(1);
  });
});
