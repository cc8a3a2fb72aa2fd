// The specific encoding module: importing the package root would pull every encoding, and nothing here may
// download at run time. o200k_base is the encoding of current OpenAI models; for other families it
// is a close, deterministic proxy, which is all a savings estimate needs.
import { countTokens as countEncoded } from 'gpt-tokenizer/encoding/o200k_base';
import { TextMemo } from '../memo/text-memo.js';

/** Strings up to this many characters are tokenized exactly. */
export const exactTokenLimitChars = 4_096;
const sampleWindows = 8;
const sampleWindowChars = 512;
const memoMaxEntries = 4_096;
const memoMaxChars = 32 * 1024 * 1024;
const memoMinChars = 256;

// Special-token text inside a tool output ("<|endoftext|>") is ordinary text to a provider, not a control token.
const encodeOptions = { disallowedSpecial: new Set<string>() };

/** Exact o200k_base token count. Linear in the text: about 6 characters per microsecond on this machine. */
export function countTokensExact(text: string): number {
  if (text.length === 0) return 0;
  return countEncoded(text, encodeOptions);
}

/**
 * Deterministic estimate for large strings: tokenize a fixed number of evenly spaced windows and scale by length.
 * A 300 KB tool output costs the same ~4 KB of tokenizing as a 5 KB one, which keeps a 100k-token request under its
 * latency budget; the error on real tool output is a few percent.
 */
function countTokensSampled(text: string): number {
  const stride = text.length / sampleWindows;
  let sampledChars = 0;
  let sampledTokens = 0;
  for (let window = 0; window < sampleWindows; window += 1) {
    const start = Math.floor(window * stride);
    const slice = text.slice(start, Math.min(start + sampleWindowChars, text.length));
    sampledChars += slice.length;
    sampledTokens += countEncoded(slice, encodeOptions);
  }
  return Math.max(1, Math.round((sampledTokens * text.length) / sampledChars));
}

/** Counts of long strings; turn N+1 carries turn N's tool outputs verbatim, so the same strings come back. */
const memo = new TextMemo<number>(memoMaxEntries, memoMaxChars);

/** Token count of `text`: exact up to `exactTokenLimitChars`, a deterministic sampled estimate above. */
export function countTokens(text: string): number {
  if (text.length < memoMinChars) return countTokensExact(text);
  return memo.get('', text, () =>
    text.length <= exactTokenLimitChars ? countTokensExact(text) : countTokensSampled(text),
  );
}

/**
 * Estimate for many strings at once (the parts of a request a strategy never rewrites): a token-per-character ratio
 * measured on evenly spaced windows of the joined text, so the cost does not grow with the number of strings.
 */
export function estimateTokensOfStrings(strings: readonly string[]): number {
  let totalChars = 0;
  for (const text of strings) totalChars += text.length;
  if (totalChars === 0) return 0;
  if (totalChars <= exactTokenLimitChars * 2) return countTokensExact(strings.join('\n'));
  const picked: string[] = [];
  const stride = totalChars / (sampleWindows * 2);
  let offset = 0;
  let next = 0;
  for (const text of strings) {
    while (next < offset + text.length && picked.length < sampleWindows * 2) {
      const local = Math.floor(next - offset);
      picked.push(text.slice(local, local + sampleWindowChars));
      next += stride;
    }
    offset += text.length;
  }
  let sampledChars = 0;
  let sampledTokens = 0;
  for (const slice of picked) {
    sampledChars += slice.length;
    sampledTokens += countEncoded(slice, encodeOptions);
  }
  return sampledChars === 0 ? 0 : Math.round((sampledTokens * totalChars) / sampledChars);
}
