import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoInstant } from './iso-instant.js';

const builtIn = (ms: number) => new Date(ms).toISOString();

describe('isoInstant', () => {
  it('formats every instant of 1970–9999 exactly as Date#toISOString, in any order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 253_402_300_799_999 }), { minLength: 1, maxLength: 20 }),
        (instants) => {
          for (const ms of instants) expect(isoInstant(ms)).toBe(builtIn(ms));
        },
      ),
    );
  });

  it('agrees around day, month, year and leap-day boundaries, and truncates fractions as Date does', () => {
    const edges = [
      0,
      86_399_999,
      86_400_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2024, 2, 1),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1),
    ];
    for (const ms of [...edges, ...edges.map((edge) => edge + 0.9)]) expect(isoInstant(ms)).toBe(builtIn(ms));
  });

  it('leaves instants outside four-digit years, and non-numbers, to the built-in', () => {
    for (const ms of [-1, -86_400_001, 253_402_300_800_000, 8.64e15]) expect(isoInstant(ms)).toBe(builtIn(ms));
    expect(() => isoInstant(Number.NaN)).toThrow(RangeError);
    expect(() => isoInstant(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
