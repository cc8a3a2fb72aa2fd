import { canonicalHash, lengthPrefixed } from './normalize-request.js';

/**
 * The near-duplicate tier's limits (optimizer README, "Semantic cache"): a request qualifies only when it is a short
 * conversation of text (no tool calls or results, no images or files) whose strings add up to at most this many
 * characters. Agent transcripts never qualify: they do not repeat, and a stale answer there costs the most.
 */
export const nearDuplicateMaxChars = 16_384;

/**
 * Key of the near-duplicate tier: the exact tier's canonical form with every string's layout normalised as well.
 * Two requests share it only when they were sent to the same endpoint and differ in nothing but invisible layout:
 * Unicode compatibility forms (NFKC: full-width letters, non-breaking spaces), zero-width characters, and runs of
 * spaces or tabs inside a line (a line's indentation is kept: it is code's meaning). Case, punctuation and wording all
 * still count. Null when the request is outside the limits.
 */
export function nearDuplicateHash(endpointScope: string, request: Record<string, unknown>): string | null {
  if (!isPlainConversation(request.messages)) return null;
  let budget = nearDuplicateMaxChars;
  return canonicalHash(endpointScope, request, (value) => {
    budget -= value.length;
    return budget < 0 ? null : lengthPrefixed(layoutFree(value));
  });
}

/** Messages of text only: no tool role, no tool calls, no content block other than text. */
function isPlainConversation(messages: unknown): boolean {
  if (!Array.isArray(messages) || messages.length === 0) return false;
  return messages.every((message: unknown) => {
    if (typeof message !== 'object' || message === null) return false;
    const { role, content, tool_calls: toolCalls } = message as Record<string, unknown>;
    if (role === 'tool' || role === 'function' || toolCalls !== undefined) return false;
    if (typeof content === 'string') return true;
    return (
      Array.isArray(content) &&
      content.every(
        (block: unknown) =>
          typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text',
      )
    );
  });
}

const zeroWidth = /[\u200B-\u200D\u2060\uFEFF]/g;
const innerRun = /(?<=\S)[ \t]+(?=\S)/g;

export function layoutFree(text: string): string {
  return text
    .normalize('NFKC')
    .replace(zeroWidth, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, '').replace(innerRun, ' '))
    .join('\n')
    .trim();
}
