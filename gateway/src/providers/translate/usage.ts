/**
 * Token usage normalised across provider families; every response and stream translator and every
 * passthrough extractor yields it, because metering needs it on every lane.
 *
 * `inputTokens` counts every prompt token, cached or not (OpenAI `prompt_tokens` semantics), so
 * `inputTokens + outputTokens` is the total on every lane; `cacheReadTokens` and `cacheWriteTokens` are
 * the parts of it served from or written to the provider's prompt cache. Anthropic reports the three
 * parts separately and its extractor adds them up. `reasoningTokens` is part of `outputTokens` and only
 * present when the provider reports it.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens?: number;
}

export function totalTokens(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens;
}

/** Input tokens billed at the provider's base input rate. */
export function uncachedInputTokens(usage: Usage): number {
  return Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
}

/** A count read from the wire: providers send null, omit fields, or (rarely) send junk. */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
