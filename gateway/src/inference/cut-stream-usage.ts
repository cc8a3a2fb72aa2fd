import type { Usage } from '../providers/translate/usage.js';

/**
 * A stream that ended before the provider reported its usage (the client left, the drain deadline, a dropped
 * connection) was still billed by the provider: for the prompt, and for what it generated until it stopped. OpenAI
 * reports usage only in the last chunk, so without an estimate the spend row said zero tokens, and a cap could be
 * dodged by leaving just before the end. The estimate is a floor, cheap enough for any body:
 * - prompt tokens: four characters of the request to a token (no tokenizer here: a body can be megabytes, and a
 *   client must not be able to buy seconds of gateway CPU by cancelling);
 * - output tokens: one per content event the client received (providers stream about a token per event, Anthropic
 *   and Responses several, so this undercounts rather than over-bills).
 * Whatever the provider did report (Anthropic's input tokens in `message_start`) wins over the estimate.
 */
export function usageOfCutStream(reported: Usage | undefined, requestBody: unknown, contentEvents: number): Usage {
  const promptEstimate = Math.ceil(serializedLength(requestBody) / charactersPerToken);
  return {
    inputTokens: reported?.inputTokens || promptEstimate,
    outputTokens: Math.max(reported?.outputTokens ?? 0, contentEvents),
    cacheReadTokens: reported?.cacheReadTokens ?? 0,
    cacheWriteTokens: reported?.cacheWriteTokens ?? 0,
    ...(reported?.reasoningTokens === undefined ? {} : { reasoningTokens: reported.reasoningTokens }),
  };
}

const charactersPerToken = 4;

function serializedLength(body: unknown): number {
  try {
    return JSON.stringify(body ?? null).length;
  } catch {
    return 0;
  }
}

/**
 * Events of a stream that are framing, not content, for each client format: chat's role chunk; Messages'
 * `message_start`, first `content_block_start` and `ping`.
 */
export const framingEvents: Record<'chat-completions' | 'messages', number> = { 'chat-completions': 1, messages: 3 };
