import { describe, expect, it } from 'vitest';
import { embeddingInputs, embeddingVector, toBase64Float32 } from './embeddings.js';

describe('embeddings', () => {
  it('encodes little-endian float32 bytes', () => {
    const vector = new Float32Array([1, -2.5, 0.1]);
    const bytes = Buffer.from(toBase64Float32(vector), 'base64');
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4), bytes.readFloatLE(8)]).toEqual(Array.from(vector));
  });

  it('returns deterministic unit vectors that differ per text', () => {
    const a = embeddingVector('a', 64);
    expect(embeddingVector('a', 64)).toEqual(a);
    expect(embeddingVector('b', 64)).not.toEqual(a);
    expect(Math.sqrt(a.reduce((sum, value) => sum + value * value, 0))).toBeCloseTo(1, 5);
  });

  it('accepts every input shape of the API', () => {
    expect(embeddingInputs('x')).toEqual(['x']);
    expect(embeddingInputs(['x', 'y'])).toEqual(['x', 'y']);
    expect(embeddingInputs([1, 2])).toEqual(['1 2']);
    expect(embeddingInputs([[1], [2, 3]])).toEqual(['1', '2 3']);
    expect(embeddingInputs([])).toBeUndefined();
    expect(embeddingInputs([{}])).toBeUndefined();
  });
});
