/**
 * Argument checks shared by both implementations, so a bad call fails the same way in-process and on Redis
 * (Redis would otherwise answer with its own wording, or silently round a fractional TTL).
 */

/** A TTL, window or lease: a positive number of milliseconds, rounded up to a whole millisecond. */
export function checkMilliseconds(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number of milliseconds, got ${value}`);
  }
  return Math.ceil(value);
}

/** An optional TTL on a counter: absent or non-positive means "no expiry". */
export function optionalMilliseconds(name: string, value: number | undefined): number {
  return value === undefined || value <= 0 ? 0 : checkMilliseconds(name, value);
}

export function checkDelta(delta: number): number {
  if (!Number.isFinite(delta)) throw new RangeError(`delta must be a finite number, got ${delta}`);
  return delta;
}

/** A slot or admission limit: a whole number; zero or less admits nothing. */
export function checkLimit(limit: number): number {
  if (!Number.isFinite(limit)) throw new RangeError(`limit must be a finite number, got ${limit}`);
  return Math.floor(limit);
}

/** A stored value read as a counter: absent or not numeric reads as 0, as the interface promises. */
export function counterValue(raw: string | null | undefined): number {
  if (raw === null || raw === undefined) return 0;
  const value = Number(raw);
  return Number.isFinite(value) ? value : 0;
}
