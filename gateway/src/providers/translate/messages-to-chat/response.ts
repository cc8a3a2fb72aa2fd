import { usageFromOpenAiUsage } from '../extract-openai-usage.js';
import { mapOpenAiFinishReason } from '../map-openai-finish-reason.js';
import { parseToolArguments } from '../parse-tool-arguments.js';
import { parseWire } from '../parse-wire.js';
import { chatCompletionSchema } from '../schemas/chat-completions.schema.js';
import type { MessagesResponseOut } from '../schemas/messages.types.js';
import { TranslationError } from '../translation-error.js';
import type { TranslatedResponse, TranslationContext } from '../translator.js';
import { messagesUsageFromUsage } from './messages-usage.js';

/**
 * A chat.completion → a Messages message: the first choice's text (or refusal text) as a text block, its
 * tool calls as `tool_use` blocks with parsed input (invalid JSON arguments become `{}`), usage with the
 * cached prompt tokens split out as `cache_read_input_tokens`.
 */
export function translateChatResponseToMessages(
  body: unknown,
  context: TranslationContext,
): TranslatedResponse<MessagesResponseOut> {
  const response = parseWire(chatCompletionSchema, body, 'invalid_upstream_response', 'The provider response');
  const [choice] = response.choices;
  if (!choice) throw new TranslationError('invalid_upstream_response', 'The provider response has no choices.');
  const content: MessagesResponseOut['content'] = [];
  const text = choice.message.content ?? choice.message.refusal ?? '';
  if (text !== '') content.push({ type: 'text', text });
  const toolCalls = choice.message.tool_calls ?? [];
  for (const call of toolCalls) {
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: parseToolArguments(call.function.arguments),
    });
  }
  const usage = usageFromOpenAiUsage(response.usage);
  return {
    body: {
      id: response.id,
      type: 'message',
      role: 'assistant',
      model: response.model ?? context.requestModel,
      content,
      stop_reason: mapOpenAiFinishReason(choice.finish_reason, toolCalls.length > 0),
      stop_sequence: null,
      usage: messagesUsageFromUsage(usage),
    },
    usage,
  };
}
