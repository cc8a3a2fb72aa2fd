import type { ChatUsageOut } from '../schemas/chat-completions.types.js';
import type { Usage } from '../usage.js';

/**
 * Normalised usage → chat-completions usage: prompt_tokens counts cache reads and writes, as OpenAI's does;
 * `cached_tokens` is the cache read; the cache-write count keeps its own field.
 */
export function chatUsageFromUsage(usage: Usage): ChatUsageOut {
  const out: ChatUsageOut = {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens, cache_write_tokens: usage.cacheWriteTokens },
  };
  if (usage.reasoningTokens !== undefined) out.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  return out;
}
