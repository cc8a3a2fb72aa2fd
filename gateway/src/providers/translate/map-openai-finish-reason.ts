import type { MessagesStopReason } from './schemas/messages.types.js';

/**
 * Chat-completions `finish_reason` → Messages `stop_reason`. Some OpenAI-compatible providers answer
 * `stop` while returning tool calls; a Messages client only runs tools on `tool_use`, so tool calls win.
 * A hit stop sequence is reported by OpenAI as plain `stop`, hence `end_turn`, never `stop_sequence`.
 */
export function mapOpenAiFinishReason(
  finishReason: string | null | undefined,
  hasToolCalls: boolean,
): MessagesStopReason | null {
  if (finishReason === null || finishReason === undefined) return null;
  if (hasToolCalls && finishReason !== 'length') return 'tool_use';
  switch (finishReason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
