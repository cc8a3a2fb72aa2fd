import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from './time-ordered-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID whose first 48 bits are the time in milliseconds', () => {
    const id = timeOrderedUuid(Date.UTC(2026, 10, 28, 10, 0, 0, 123));
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(Date.UTC(2026, 10, 28, 10, 0, 0, 123));
  });

  it('sorts later ids after earlier ones, as text and as Postgres orders uuid values', () => {
    const times = [0, 1, 255, 256, 1_700_000_000_000, 1_700_000_000_001, 2 ** 48 - 1];
    const ids = times.map((time) => timeOrderedUuid(time));
    expect([...ids].sort()).toEqual(ids);
  });

  it('differs between two ids of the same millisecond (74 random bits)', () => {
    const ids = new Set(Array.from({ length: 1_000 }, () => timeOrderedUuid(1_700_000_000_000)));
    expect(ids.size).toBe(1_000);
    for (const id of ids) expect(id).toMatch(UUID_V7);
  });
});
