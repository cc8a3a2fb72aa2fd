import { isPlainObject, parseJson } from './parse-wire.js';
import type { SseFrame } from './sse.js';
import type { StreamUsageTracker } from './translator.js';
import { tokenCount, type Usage } from './usage.js';

/**
 * Usage from a Messages `usage` object. Messages reports uncached input, cache reads and cache writes as
 * three separate counts; `Usage.inputTokens` is their sum (see usage.ts).
 */
export function usageFromAnthropicUsage(usage: unknown): Usage | undefined {
  if (!isPlainObject(usage)) return undefined;
  const cacheReadTokens = tokenCount(usage.cache_read_input_tokens);
  const cacheWriteTokens = tokenCount(usage.cache_creation_input_tokens);
  const result: Usage = {
    inputTokens: tokenCount(usage.input_tokens) + cacheReadTokens + cacheWriteTokens,
    outputTokens: tokenCount(usage.output_tokens),
    cacheReadTokens,
    cacheWriteTokens,
  };
  const details = usage.output_tokens_details;
  if (isPlainObject(details) && typeof details.thinking_tokens === 'number') {
    result.reasoningTokens = tokenCount(details.thinking_tokens);
  }
  return result;
}

/** Usage of a same-family (passthrough) Messages JSON response body, parsed. */
export function extractAnthropicUsage(body: unknown): Usage | undefined {
  return isPlainObject(body) ? usageFromAnthropicUsage(body.usage) : undefined;
}

const usageFields = [
  'input_tokens',
  'output_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
  'output_tokens_details',
] as const;

/**
 * Accumulates Messages stream usage: `message_start` carries input and cache counts, each `message_delta`
 * carries cumulative totals; a field present (non-null) in a later event replaces the earlier value, never
 * adds to it (the same rule as the official SDK's accumulator).
 */
export class AnthropicStreamUsageAccumulator {
  readonly #fields: Record<string, unknown> = {};
  #seen = false;

  apply(usage: unknown): void {
    if (!isPlainObject(usage)) return;
    this.#seen = true;
    for (const field of usageFields) {
      if (usage[field] !== null && usage[field] !== undefined) this.#fields[field] = usage[field];
    }
  }

  /** The raw merged counts, in Messages field names. */
  fields(): Readonly<Record<string, unknown>> {
    return this.#fields;
  }

  usage(): Usage | undefined {
    return this.#seen ? usageFromAnthropicUsage(this.#fields) : undefined;
  }
}

/** Watches a passthrough Messages stream; parses only the two event types that carry usage. */
export class AnthropicStreamUsageTracker implements StreamUsageTracker {
  readonly #accumulator = new AnthropicStreamUsageAccumulator();

  observe(frame: SseFrame): void {
    if (!carriesUsage(frame)) return;
    const event = parseJson(frame.data);
    if (!isPlainObject(event)) return;
    if (event.type === 'message_start' && isPlainObject(event.message)) this.#accumulator.apply(event.message.usage);
    else if (event.type === 'message_delta') this.#accumulator.apply(event.usage);
  }

  usage(): Usage | undefined {
    return this.#accumulator.usage();
  }
}

function carriesUsage(frame: SseFrame): boolean {
  if (frame.event !== undefined) return frame.event === 'message_start' || frame.event === 'message_delta';
  return frame.data.includes('"message_start"') || frame.data.includes('"message_delta"');
}
