import { usageFromAnthropicUsage } from '../extract-anthropic-usage.js';
import { mapAnthropicStopReason } from '../map-anthropic-stop-reason.js';
import { stringifyToolInput } from '../parse-tool-arguments.js';
import { parseWire } from '../parse-wire.js';
import type { ChatCompletionOut, ChatToolCallOut } from '../schemas/chat-completions.types.js';
import {
  messagesResponseSchema,
  messagesThinkingBlockSchema,
  messagesTextBlockSchema,
  messagesToolUseBlockSchema,
} from '../schemas/messages.schema.js';
import type { TranslatedResponse, TranslationContext, TranslatorClock } from '../translator.js';
import { chatUsageFromUsage } from './chat-usage.js';
import { jsonResponseTool } from './response-format.js';

export interface ChatToMessagesResponseOptions {
  readonly clock: TranslatorClock;
}

/**
 * A Messages response → a chat.completion. Text blocks join into `content`; `tool_use` blocks become
 * `tool_calls`, except the forced `json_response` tool of a `response_format`, whose input is the content;
 * thinking text goes to `reasoning_content`. Server-tool blocks (web search and the like)
 * have no chat equivalent and are left out; their cost is in the usage.
 */
export function translateMessagesResponseToChat(
  body: unknown,
  context: TranslationContext,
  options: ChatToMessagesResponseOptions,
): TranslatedResponse<ChatCompletionOut> {
  const response = parseWire(messagesResponseSchema, body, 'invalid_upstream_response', 'The provider response');
  let text: string | undefined;
  let reasoning: string | undefined;
  const toolCalls: ChatToolCallOut[] = [];
  // In JSON mode the answer is the forced tool's input alone: text around it, or a second call, would break the JSON.
  let jsonAnswer: string | undefined;
  for (const block of response.content) {
    if (block.type === 'text') {
      if (context.jsonResponse) continue;
      text = (text ?? '') + parseWire(messagesTextBlockSchema, block, 'invalid_upstream_response', 'A text block').text;
    } else if (block.type === 'tool_use') {
      const toolUse = parseWire(messagesToolUseBlockSchema, block, 'invalid_upstream_response', 'A tool_use block');
      // The forced response-format tool's input is the JSON answer the client asked for, as content.
      if (context.jsonResponse && toolUse.name === jsonResponseTool) jsonAnswer ??= stringifyToolInput(toolUse.input);
      else
        toolCalls.push({
          id: toolUse.id,
          type: 'function',
          function: { name: toolUse.name, arguments: stringifyToolInput(toolUse.input) },
        });
    } else if (block.type === 'thinking') {
      reasoning =
        (reasoning ?? '') +
        parseWire(messagesThinkingBlockSchema, block, 'invalid_upstream_response', 'A thinking block').thinking;
    }
  }
  const message: ChatCompletionOut['choices'][0]['message'] = {
    role: 'assistant',
    content: jsonAnswer ?? text ?? null,
    refusal: null,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  const usage = usageFromAnthropicUsage(response.usage);
  const out: ChatCompletionOut = {
    id: response.id,
    object: 'chat.completion',
    created: Math.floor(options.clock.now() / 1000),
    model: response.model ?? context.requestModel,
    choices: [
      {
        index: 0,
        message,
        logprobs: null,
        finish_reason:
          toolCalls.length === 0 && response.stop_reason === 'tool_use'
            ? 'stop'
            : mapAnthropicStopReason(response.stop_reason),
      },
    ],
  };
  if (usage) out.usage = chatUsageFromUsage(usage);
  return { body: out, usage };
}
