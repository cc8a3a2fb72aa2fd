import { createHash } from 'node:crypto';

// Fields that change delivery or bookkeeping, not the answer: two requests differing only here share an entry.
const ignoredTopLevel = new Set(['stream', 'stream_options', 'user', 'metadata', 'store', 'service_tier', 'prompt_cache_key', 'prompt_cache_retention', 'safety_identifier']);

/**
 * The exact-match key of the semantic cache: SHA-256 of a canonical form of the request with sorted keys, line
 * endings unified and trailing whitespace on each line dropped. Numbers keep JSON's spelling after parsing. Costs
 * well under a millisecond for a 100k-token request: it runs on every attributed optimize call.
 */
export function normalizedRequestHash(request: Record<string, unknown>): string {
  const top: Record<string, unknown> = {};
  for (const key of Object.keys(request)) if (!ignoredTopLevel.has(key)) top[key] = request[key];
  // One string, one hash update: many small updates cost more than the concatenation.
  const parts: string[] = [];
  writeCanonical(top, (chunk) => parts.push(chunk));
  return createHash('sha256').update(parts.join('')).digest('hex');
}

function writeCanonical(value: unknown, write: (chunk: string) => void): void {
  if (typeof value === 'string') {
    // Length-prefixed rather than JSON-escaped: just as unambiguous, and escaping a large string is the slow part.
    const text = normalizeText(value);
    write(`s${text.length}:`);
    write(text);
  } else if (Array.isArray(value)) {
    write('[');
    value.forEach((item, index) => {
      if (index > 0) write(',');
      writeCanonical(item, write);
    });
    write(']');
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    write('{');
    Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .forEach((key, index) => {
        if (index > 0) write(',');
        write(`${JSON.stringify(key)}:`);
        writeCanonical(record[key], write);
      });
    write('}');
  } else {
    write(JSON.stringify(value ?? null));
  }
}

const blank = /\s/;

function normalizeText(text: string): string {
  // Most strings need nothing: check cheaply before rewriting (hot path, spec 001 §8 latency).
  const edges = text.length > 0 && (blank.test(text[0]) || blank.test(text[text.length - 1]));
  if (!edges && !text.includes('\r') && !text.includes(' \n') && !text.includes('\t\n')) return text;
  return text.replace(/\r\n?/g, '\n').replace(/[ \t]+\n/g, '\n').trim();
}
