import type { ChatFinishReason } from './schemas/chat-completions.types.js';

/**
 * Messages `stop_reason` → chat-completions `finish_reason`. `pause_turn` (a server tool paused a long turn)
 * has no chat equivalent; the turn did end, so it is `stop`. Unknown future reasons are `stop` too.
 */
export function mapAnthropicStopReason(stopReason: string | null | undefined): ChatFinishReason | null {
  switch (stopReason) {
    case null:
    case undefined:
      return null;
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}
