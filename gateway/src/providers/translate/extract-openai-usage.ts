import { isPlainObject, parseJson } from './parse-wire.js';
import type { SseFrame } from './sse.js';
import type { StreamUsageTracker } from './translator.js';
import { tokenCount, type Usage } from './usage.js';

/**
 * Usage from an OpenAI-family `usage` object: chat completions, legacy completions and embeddings
 * (`prompt_tokens`…), and the Responses API (`input_tokens`…). Cached and cache-write tokens are already
 * inside the prompt count there.
 */
export function usageFromOpenAiUsage(usage: unknown): Usage | undefined {
  if (!isPlainObject(usage)) return undefined;
  if ('input_tokens' in usage && !('prompt_tokens' in usage)) return usageFromResponsesUsage(usage);
  const promptDetails = isPlainObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completionDetails = isPlainObject(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  return withReasoning(
    {
      inputTokens: tokenCount(usage.prompt_tokens),
      outputTokens: tokenCount(usage.completion_tokens),
      cacheReadTokens: tokenCount(promptDetails.cached_tokens),
      cacheWriteTokens: tokenCount(promptDetails.cache_write_tokens),
    },
    completionDetails.reasoning_tokens,
  );
}

function usageFromResponsesUsage(usage: Record<string, unknown>): Usage {
  const inputDetails = isPlainObject(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const outputDetails = isPlainObject(usage.output_tokens_details) ? usage.output_tokens_details : {};
  return withReasoning(
    {
      inputTokens: tokenCount(usage.input_tokens),
      outputTokens: tokenCount(usage.output_tokens),
      cacheReadTokens: tokenCount(inputDetails.cached_tokens),
      cacheWriteTokens: 0,
    },
    outputDetails.reasoning_tokens,
  );
}

function withReasoning(usage: Usage, reasoningTokens: unknown): Usage {
  return typeof reasoningTokens === 'number' ? { ...usage, reasoningTokens: tokenCount(reasoningTokens) } : usage;
}

/** Usage of a same-family (passthrough) OpenAI JSON response body, parsed. */
export function extractOpenAiUsage(body: unknown): Usage | undefined {
  return isPlainObject(body) ? usageFromOpenAiUsage(body.usage) : undefined;
}

/**
 * Watches a passthrough chat-completions stream for the final usage chunk (sent when the request had
 * `stream_options.include_usage`), or a Responses stream for the usage on its closing event. Only frames that mention usage are parsed, keeping the hot path cheap;
 * the last usage seen wins (some compatible providers repeat running totals).
 */
export class OpenAiStreamUsageTracker implements StreamUsageTracker {
  #usage: Usage | undefined;

  observe(frame: SseFrame): void {
    if (!frame.data.includes(`"usage":{`) && !frame.data.includes(`"usage": {`)) return;
    const chunk = parseJson(frame.data);
    if (!isPlainObject(chunk)) return;
    // A chat chunk carries `usage` itself; a Responses stream's `response.completed` (or `.incomplete`, `.failed`)
    // event carries it on the response it wraps.
    const usage =
      usageFromOpenAiUsage(chunk.usage) ??
      (isPlainObject(chunk.response) ? usageFromOpenAiUsage(chunk.response.usage) : undefined);
    if (usage) this.#usage = usage;
  }

  usage(): Usage | undefined {
    return this.#usage;
  }
}
