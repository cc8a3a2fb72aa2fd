import type { MessagesUsageOut } from '../schemas/messages.types.js';
import { uncachedInputTokens, type Usage } from '../usage.js';

/** Normalised usage → Messages usage, where `input_tokens` excludes the cache read and write counts. */
export function messagesUsageFromUsage(usage: Usage | undefined): MessagesUsageOut {
  if (!usage) return { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  return {
    input_tokens: uncachedInputTokens(usage),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cacheReadTokens,
  };
}
