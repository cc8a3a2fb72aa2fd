import { effortForThinking } from '../map-reasoning-effort.js';
import { parseWire } from '../parse-wire.js';
import type { ChatCompletionRequestOut } from '../schemas/chat-completions.types.js';
import { messagesRequestSchema, type MessagesRequest } from '../schemas/messages.schema.js';
import type { TranslatedRequest } from '../translator.js';
import { convertSystem, convertTurns } from './convert-turns.js';
import { convertToolChoice, convertTools } from './convert-tools.js';

export interface MessagesToChatRequestOptions {
  /**
   * Which field carries the output limit. `max_completion_tokens` (the default) is what current OpenAI
   * models require; older OpenAI-compatible servers only know `max_tokens`.
   */
  readonly maxTokensField?: 'max_completion_tokens' | 'max_tokens';
  /**
   * Send `reasoning_effort` derived from thinking (default true). Non-reasoning models (gpt-4.1) reject
   * the field, so the provider adapter turns this off for them.
   */
  readonly sendReasoningEffort?: boolean;
}

/**
 * A Messages request → a chat-completions request. The input is never mutated (retries reuse it); the
 * output may share nested JSON values with it (tool schemas), so treat both as immutable.
 */
export function translateMessagesRequestToChat(
  body: unknown,
  options: MessagesToChatRequestOptions = {},
): TranslatedRequest<ChatCompletionRequestOut> {
  const request = parseWire(messagesRequestSchema, body, 'invalid_request', 'The Messages request');
  const out: ChatCompletionRequestOut = {
    model: request.model,
    messages: [...convertSystem(request.system), ...convertTurns(request.messages)],
  };
  out[options.maxTokensField ?? 'max_completion_tokens'] = request.max_tokens;
  if (request.stop_sequences && request.stop_sequences.length > 0) out.stop = request.stop_sequences;
  if (typeof request.temperature === 'number') out.temperature = request.temperature;
  if (typeof request.top_p === 'number') out.top_p = request.top_p;
  applyTools(out, request);
  if (options.sendReasoningEffort !== false) {
    const effort = effortForThinking(request.thinking, request.output_config?.effort);
    if (effort) out.reasoning_effort = effort;
  }
  if (request.metadata?.user_id) out.user = request.metadata.user_id;
  if (request.stream === true) {
    out.stream = true;
    // Usage only arrives in a streamed chat completion when asked for; metering needs it on every call.
    out.stream_options = { include_usage: true };
  }
  return { body: out, context: { stream: request.stream === true, includeUsage: true, requestModel: request.model } };
}

function applyTools(out: ChatCompletionRequestOut, request: MessagesRequest): void {
  if (!request.tools || request.tools.length === 0) return;
  out.tools = convertTools(request.tools);
  const { toolChoice, parallelToolCalls } = convertToolChoice(request.tool_choice);
  if (toolChoice !== undefined) out.tool_choice = toolChoice;
  if (parallelToolCalls !== undefined) out.parallel_tool_calls = parallelToolCalls;
}
