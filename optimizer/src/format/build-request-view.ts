import { buildAnthropicMessagesView } from './anthropic-messages-view.js';
import { arrayField, isRecord, type JsonObject } from './json-value.js';
import { buildOpenAiChatView } from './openai-chat-view.js';
import { buildOpenAiResponsesView } from './openai-responses-view.js';
import type { RequestFormat, RequestView } from './request-view.js';

/** Anthropic-only markers: a top-level `system`, or `tool_result` / `tool_use` blocks in the conversation. */
function looksLikeMessages(request: JsonObject): boolean {
  if (request.system !== undefined) return true;
  for (const message of arrayField(request, 'messages') ?? []) {
    if (!isRecord(message)) continue;
    if (message.role === 'tool' || message.tool_calls !== undefined) return false;
    for (const block of arrayField(message, 'content') ?? []) {
      if (isRecord(block) && (block.type === 'tool_result' || block.type === 'tool_use')) return true;
    }
  }
  return false;
}

/** Format from the endpoint when it names one, else from the body's shape. */
export function detectRequestFormat(endpoint: string, request: JsonObject): RequestFormat | null {
  if (endpoint.includes('/responses')) return 'openai-responses';
  if (/\/messages(\b|$)/.test(endpoint) && Array.isArray(request.messages)) return 'anthropic-messages';
  if (endpoint.includes('/chat/completions') && Array.isArray(request.messages)) return 'openai-chat';
  if (Array.isArray(request.messages)) return looksLikeMessages(request) ? 'anthropic-messages' : 'openai-chat';
  if (Array.isArray(request.input)) return 'openai-responses';
  return null;
}

/** The neutral view strategies work on, or null for a body with no conversation to optimize. */
export function buildRequestView(endpoint: string, request: JsonObject): RequestView | null {
  switch (detectRequestFormat(endpoint, request)) {
    case 'openai-chat':
      return buildOpenAiChatView(request);
    case 'anthropic-messages':
      return buildAnthropicMessagesView(request);
    case 'openai-responses':
      return buildOpenAiResponsesView(request);
    default:
      return null;
  }
}
