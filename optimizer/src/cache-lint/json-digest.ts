import { createHash } from 'node:crypto';
import { TextMemo } from '../memo/text-memo.js';

/** What the lint keeps of a part of a prompt: a digest of its JSON serialisation, and that serialisation's length. */
export interface JsonDigest {
  digest: string;
  chars: number;
}

/** Strings from this length on are serialised and hashed once, then remembered (`longStrings`). */
const longStringChars = 256;

/**
 * The long strings of recent prompts, by content. Turn N+1 of a session repeats turn N's messages, and their bulk is
 * a few long strings (tool outputs, file reads); a lookup compares the string, far cheaper than escaping and hashing
 * it again. The same bounds as the exact cache hash's memo (`cache/normalize-request.ts`): the same traffic.
 */
const longStrings = new TextMemo<JsonDigest>(16_384, 32 * 1024 * 1024);

// 96 bits tell a changed part from an unchanged one; a session of a thousand messages keeps 16 KB of them.
const shortDigest = (text: string) => createHash('sha1').update(text).digest('base64').slice(0, 16);

/**
 * `JsonDigest` of a parsed JSON value (strings, numbers, booleans, null, arrays, plain objects in key order) without
 * re-serialising its long strings. Each long string enters the digested text as `#` and the SHA-256 of its content:
 * never a JSON token at a value position, so the text still tells every two values apart, and for a value without
 * long strings it is exactly `JSON.stringify(value)`. `chars` is always that serialisation's length.
 */
export function jsonDigest(value: unknown): JsonDigest {
  const parts: string[] = [];
  const chars = write(value, parts);
  return { digest: shortDigest(parts.join('')), chars };
}

function write(value: unknown, parts: string[]): number {
  if (typeof value === 'string') {
    if (value.length < longStringChars) return push(JSON.stringify(value), parts);
    const long = longStrings.get('', value, () => ({
      digest: createHash('sha256').update(value).digest('base64'),
      chars: JSON.stringify(value).length,
    }));
    parts.push(`#${long.digest}`);
    return long.chars;
  }
  if (Array.isArray(value)) {
    let chars = push('[', parts);
    value.forEach((item: unknown, index) => {
      if (index > 0) chars += push(',', parts);
      chars += write(item ?? null, parts);
    });
    return chars + push(']', parts);
  }
  if (value !== null && typeof value === 'object') {
    let chars = push('{', parts);
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      // JSON.stringify leaves out a key whose value is undefined; parsed JSON has none, but the rule stays the same.
      if (item === undefined) continue;
      chars += push(`${first ? '' : ','}${JSON.stringify(key)}:`, parts);
      chars += write(item, parts);
      first = false;
    }
    return chars + push('}', parts);
  }
  return push(JSON.stringify(value ?? null), parts);
}

function push(text: string, parts: string[]): number {
  parts.push(text);
  return text.length;
}
