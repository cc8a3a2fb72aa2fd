import type { SseFrame } from './sse.js';
import type { Usage } from './usage.js';

/** The wire format a client spoke to the gateway in. */
export type ClientFormat = 'chat-completions' | 'messages';

/** The wire format a provider speaks: OpenAI chat-completions family or Anthropic Messages family. */
export type BackendFamily = 'openai' | 'anthropic';

/** Structurally the platform `Clock`; translators only need "now" to stamp `created`. */
export interface TranslatorClock {
  now(): number;
}

/** What the response side of a translation needs to remember from the request side. */
export interface TranslationContext {
  /** The client asked for a stream. */
  readonly stream: boolean;
  /** The client asked for a final usage chunk (chat-completions `stream_options.include_usage`). */
  readonly includeUsage: boolean;
  /** The model the client asked for, used when the provider's answer names none. */
  readonly requestModel: string;
  /**
   * The client's `response_format` went to a Messages provider as a forced `json_response` tool: its input is the
   * answer's content (`chat-to-messages/response-format.ts`).
   */
  readonly jsonResponse?: boolean;
}

export interface TranslatedRequest<TBody> {
  readonly body: TBody;
  readonly context: TranslationContext;
}

export interface TranslatedResponse<TBody> {
  readonly body: TBody;
  readonly usage: Usage | undefined;
}

/**
 * Converts one upstream event stream into the client's event stream, frame by frame. Stateful: one
 * instance per response. `end()` is called once when the upstream closes, cleanly or not.
 */
export interface StreamTranslator {
  push(frame: SseFrame): SseFrame[];
  end(): SseFrame[];
  /** Usage reported so far; undefined when the upstream has reported none. */
  usage(): Usage | undefined;
}

/** Watches a passthrough stream without changing it, for metering. */
export interface StreamUsageTracker {
  observe(frame: SseFrame): void;
  usage(): Usage | undefined;
}
