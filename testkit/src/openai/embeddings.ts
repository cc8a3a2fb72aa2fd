import { estimateTokens } from '../core/reply.js';

type Json = Record<string, unknown>;

const DEFAULT_DIMENSIONS: Record<string, number> = { 'text-embedding-3-large': 3072 };

/** The items of `input`: a string, an array of strings, an array of token ids, or an array of such arrays. */
export function embeddingInputs(input: unknown): string[] | undefined {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0) return undefined;
  if (input.every((item) => typeof item === 'number')) return [input.join(' ')];
  const items: string[] = [];
  for (const item of input) {
    if (typeof item === 'string') items.push(item);
    else if (Array.isArray(item)) items.push(item.join(' '));
    else return undefined;
  }
  return items;
}

/**
 * A deterministic unit vector per text (FNV-1a seed, xorshift32 stream). Values are rounded to float32 so the
 * float and base64 encodings describe exactly the same numbers.
 */
export function embeddingVector(text: string, dimensions: number): Float32Array {
  let seed = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    seed ^= text.charCodeAt(index);
    seed = Math.imul(seed, 0x01000193) >>> 0;
  }
  let state = seed === 0 ? 1 : seed;
  const raw = new Float64Array(dimensions);
  let norm = 0;
  for (let index = 0; index < dimensions; index += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    const value = state / 0xffffffff - 0.5;
    raw[index] = value;
    norm += value * value;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const vector = new Float32Array(dimensions);
  for (let index = 0; index < dimensions; index += 1) vector[index] = (raw[index] ?? 0) * scale;
  return vector;
}

/** Little-endian float32 bytes in base64: what the OpenAI SDK decodes with `new Float32Array(buffer)`. */
export function toBase64Float32(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let index = 0; index < vector.length; index += 1) bytes.writeFloatLE(vector[index] ?? 0, index * 4);
  return bytes.toString('base64');
}

export function embeddingDimensions(body: Json, model: string, configured: number | undefined): number {
  if (typeof body.dimensions === 'number' && body.dimensions > 0) return body.dimensions;
  return configured ?? DEFAULT_DIMENSIONS[model] ?? 1536;
}

export function embeddingsJson(
  inputs: readonly string[],
  model: string,
  dimensions: number,
  base64: boolean,
  promptTokens?: number,
): string {
  const data = inputs.map((text, index) => {
    const vector = embeddingVector(text, dimensions);
    return { object: 'embedding', index, embedding: base64 ? toBase64Float32(vector) : Array.from(vector) };
  });
  const tokens = promptTokens ?? inputs.reduce((sum, text) => sum + estimateTokens(text.length), 0);
  return JSON.stringify({ object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}
