/** A fixed-capacity buffer of latency samples (bounded by the job's `maxRequests`, so no growth on the hot path). */
export class Samples {
  readonly #values: Float64Array;
  #count = 0;

  constructor(capacity: number) {
    this.#values = new Float64Array(capacity);
  }

  add(value: number): void {
    if (this.#count < this.#values.length) this.#values[this.#count++] = value;
  }

  toArray(): Float64Array {
    return this.#values.slice(0, this.#count);
  }
}

/** Nearest-rank percentile (`p` in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(samples: Float64Array, p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = samples.slice().sort();
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? Number.NaN;
}

/** Concatenate the samples of several rounds. */
export function mergeSamples(parts: readonly Float64Array[]): Float64Array {
  const merged = new Float64Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    merged.set(part, offset);
    offset += part.length;
  }
  return merged;
}
