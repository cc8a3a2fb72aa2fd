import type { UpstreamOperation } from '../providers/provider-types.js';

export type ClientFormat = 'chat-completions' | 'messages';

/** What a route hands to the pipeline. */
export interface InferenceCall {
  /** Stored endpoint name (`/v1/chat/completions`). */
  endpoint: string;
  operation: UpstreamOperation;
  /** Lane selection: chat and Messages translate across families; other operations require a matching family. */
  clientFormat: ClientFormat;
  /** Operations only an OpenAI-family provider serves (completions, embeddings). */
  requiresFamily?: 'openai';
  body: Record<string, unknown> | undefined;
  /** The client's bytes for same-family forwarding; null when the route rewrote the body (seat lane envelopes). */
  rawBody?: Buffer | null;
  /** A subscription seat, for metering and the optimizer lane. */
  seat?: boolean;
}
