import { createHash } from 'node:crypto';
import { TextMemo } from '../memo/text-memo.js';

// Fields that change delivery or bookkeeping, not the answer: two requests differing only here share an entry.
const ignoredTopLevel = new Set([
  'stream',
  'stream_options',
  'user',
  'metadata',
  'store',
  'service_tier',
  'prompt_cache_key',
  'prompt_cache_retention',
  'safety_identifier',
]);

/**
 * The exact-match key of the semantic cache: SHA-256 of the endpoint scope and a canonical form of the request with
 * sorted keys, line endings unified and trailing whitespace on each line dropped. Numbers keep JSON's spelling after
 * parsing. It runs on every attributed optimize call, so a long string enters as the digest of its normalized text,
 * remembered across calls: turn N+1 repeats turn N's tool outputs, and only the new ones are normalized and hashed.
 */
export function normalizedRequestHash(endpointScope: string, request: Record<string, unknown>): string {
  return canonicalHash(endpointScope, request, exactString) as string;
}

/**
 * SHA-256 of the endpoint scope (`endpoint-scope.ts`: the same body on another endpoint is another entry) and the
 * canonical form of a request without its delivery fields: keys sorted, strings as `stringForm` writes them (null
 * aborts: the result is then null). One string, one hash update: many small updates cost more.
 */
export function canonicalHash(
  endpointScope: string,
  request: Record<string, unknown>,
  stringForm: (value: string) => string | null,
): string | null {
  const top: Record<string, unknown> = {};
  for (const key of Object.keys(request)) if (!ignoredTopLevel.has(key)) top[key] = request[key];
  const parts: string[] = [lengthPrefixed(endpointScope)];
  if (!writeCanonical(top, parts, stringForm)) return null;
  return createHash('sha256').update(parts.join('')).digest('hex');
}

/** Length-prefixed rather than JSON-escaped: just as unambiguous, and escaping a large string is the slow part. */
export const lengthPrefixed = (text: string) => `s${text.length}:${text}`;

function exactString(value: string): string {
  return value.length >= longStringChars ? `h${digestOf(value)}` : lengthPrefixed(normalizeText(value));
}

function writeCanonical(value: unknown, parts: string[], stringForm: (value: string) => string | null): boolean {
  if (typeof value === 'string') {
    const form = stringForm(value);
    if (form === null) return false;
    parts.push(form);
    return true;
  }
  if (Array.isArray(value)) {
    parts.push('[');
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) parts.push(',');
      if (!writeCanonical(value[index], parts, stringForm)) return false;
    }
    parts.push(']');
    return true;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    parts.push('{');
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    for (let index = 0; index < keys.length; index += 1) {
      if (index > 0) parts.push(',');
      parts.push(`${JSON.stringify(keys[index])}:`);
      if (!writeCanonical(record[keys[index]], parts, stringForm)) return false;
    }
    parts.push('}');
    return true;
  }
  parts.push(JSON.stringify(value ?? null));
  return true;
}

/** Strings from this length on enter the canonical form as a digest (a prefix `h` keeps the two forms apart). */
const longStringChars = 256;

/** Digests of the normalized text of long strings. */
const longStringDigests = new TextMemo<string>(16_384, 32 * 1024 * 1024);

function digestOf(text: string): string {
  return longStringDigests.get('', text, () => createHash('sha256').update(normalizeText(text)).digest('base64'));
}

const blank = /\s/;

function normalizeText(text: string): string {
  // Most strings need nothing: check cheaply before rewriting (hot path).
  const edges = text.length > 0 && (blank.test(text[0]) || blank.test(text[text.length - 1]));
  if (!edges && !text.includes('\r') && !text.includes(' \n') && !text.includes('\t\n')) return text;
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}
