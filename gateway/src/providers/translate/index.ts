import { translateChatRequestToMessages } from './chat-to-messages/request.js';
import { translateMessagesResponseToChat } from './chat-to-messages/response.js';
import { createChatToMessagesStreamTranslator } from './chat-to-messages/stream.js';
import { chatErrorFromMessagesError } from './chat-to-messages/error.js';
import { AnthropicStreamUsageTracker, extractAnthropicUsage } from './extract-anthropic-usage.js';
import { extractOpenAiUsage, OpenAiStreamUsageTracker } from './extract-openai-usage.js';
import type { Lane } from './lane.js';
import { messagesErrorFromChatError } from './messages-to-chat/error.js';
import { translateMessagesRequestToChat } from './messages-to-chat/request.js';
import { translateChatResponseToMessages } from './messages-to-chat/response.js';
import { createMessagesToChatStreamTranslator } from './messages-to-chat/stream.js';
import type { BackendFamily, ClientFormat } from './translator.js';

/**
 * Every (client format, provider family) pair and what carries it, in one place (Envoy AI Gateway style:
 * translators named by client schema and backend schema, picked from one table). Same family passes
 * through; crossing families translates. Built once at import, shared by every request.
 */
const lanes: Readonly<Record<ClientFormat, Readonly<Record<BackendFamily, Lane>>>> = {
  'chat-completions': {
    openai: {
      kind: 'passthrough',
      clientFormat: 'chat-completions',
      backendFamily: 'openai',
      extractUsage: extractOpenAiUsage,
      createStreamUsageTracker: () => new OpenAiStreamUsageTracker(),
    },
    anthropic: {
      kind: 'translate',
      clientFormat: 'chat-completions',
      backendFamily: 'anthropic',
      translateRequest: translateChatRequestToMessages,
      translateResponse: translateMessagesResponseToChat,
      createStreamTranslator: createChatToMessagesStreamTranslator,
      translateError: chatErrorFromMessagesError,
    },
  },
  messages: {
    openai: {
      kind: 'translate',
      clientFormat: 'messages',
      backendFamily: 'openai',
      translateRequest: translateMessagesRequestToChat,
      translateResponse: translateChatResponseToMessages,
      createStreamTranslator: createMessagesToChatStreamTranslator,
      translateError: messagesErrorFromChatError,
    },
    anthropic: {
      kind: 'passthrough',
      clientFormat: 'messages',
      backendFamily: 'anthropic',
      extractUsage: extractAnthropicUsage,
      createStreamUsageTracker: () => new AnthropicStreamUsageTracker(),
    },
  },
};

export function pickTranslator(clientFormat: ClientFormat, backendFamily: BackendFamily): Lane {
  return lanes[clientFormat][backendFamily];
}

export type {
  CrossingLane,
  Lane,
  PassthroughLane,
  RequestTranslationOptions,
  ResponseTranslationOptions,
} from './lane.js';
export type {
  BackendFamily,
  ClientFormat,
  StreamTranslator,
  StreamUsageTracker,
  TranslatedRequest,
  TranslatedResponse,
  TranslationContext,
  TranslatorClock,
} from './translator.js';
export { totalTokens, uncachedInputTokens, type Usage } from './usage.js';
export { TranslationError, type TranslationErrorCode } from './translation-error.js';
export { parseSse, serializeSseFrame, serializeSseFrames, SseParser, type SseFrame } from './sse.js';
export {
  AnthropicStreamUsageTracker,
  extractAnthropicUsage,
  usageFromAnthropicUsage,
} from './extract-anthropic-usage.js';
export { extractOpenAiUsage, OpenAiStreamUsageTracker, usageFromOpenAiUsage } from './extract-openai-usage.js';
export {
  defaultMaxTokens,
  translateChatRequestToMessages,
  type ChatToMessagesRequestOptions,
} from './chat-to-messages/request.js';
export { translateMessagesResponseToChat } from './chat-to-messages/response.js';
export {
  createChatToMessagesStreamTranslator,
  MessagesEventsToChatChunks,
  type ChatStreamOutput,
} from './chat-to-messages/stream.js';
export { chatErrorFromMessagesError } from './chat-to-messages/error.js';
export { translateMessagesRequestToChat, type MessagesToChatRequestOptions } from './messages-to-chat/request.js';
export { translateChatResponseToMessages } from './messages-to-chat/response.js';
export { ChatChunksToMessagesEvents, createMessagesToChatStreamTranslator } from './messages-to-chat/stream.js';
export { messagesErrorFromChatError } from './messages-to-chat/error.js';
export { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
export { mapOpenAiFinishReason } from './map-openai-finish-reason.js';
export { effortForThinking, thinkingBudgetByEffort, thinkingForEffort } from './map-reasoning-effort.js';
