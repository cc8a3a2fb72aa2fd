import type { ChatToMessagesRequestOptions } from './chat-to-messages/request.js';
import type { MessagesToChatRequestOptions } from './messages-to-chat/request.js';
import type {
  BackendFamily,
  ClientFormat,
  StreamTranslator,
  StreamUsageTracker,
  TranslatedRequest,
  TranslatedResponse,
  TranslationContext,
  TranslatorClock,
} from './translator.js';
import type { Usage } from './usage.js';

/** Per-call request options; each direction reads its own fields and ignores the rest. */
export type RequestTranslationOptions = ChatToMessagesRequestOptions & MessagesToChatRequestOptions;

export interface ResponseTranslationOptions {
  readonly clock: TranslatorClock;
}

/** Client and provider speak different families: every body, stream and error is converted. */
export interface CrossingLane {
  readonly kind: 'translate';
  readonly clientFormat: ClientFormat;
  readonly backendFamily: BackendFamily;
  translateRequest(body: unknown, options?: RequestTranslationOptions): TranslatedRequest<object>;
  /** A successful (2xx) JSON response body, parsed. */
  translateResponse(
    body: unknown,
    context: TranslationContext,
    options: ResponseTranslationOptions,
  ): TranslatedResponse<object>;
  createStreamTranslator(context: TranslationContext, options: ResponseTranslationOptions): StreamTranslator;
  /** An upstream error body (parsed JSON, or raw text) → the client's error envelope. */
  translateError(body: unknown, status: number): object;
}

/**
 * Client and provider speak the same family: bodies go through byte-faithful (not here), and only usage is
 * read from them for metering.
 */
export interface PassthroughLane {
  readonly kind: 'passthrough';
  readonly clientFormat: ClientFormat;
  readonly backendFamily: BackendFamily;
  extractUsage(body: unknown): Usage | undefined;
  createStreamUsageTracker(): StreamUsageTracker;
}

export type Lane = CrossingLane | PassthroughLane;
