import { describe, expect, it } from 'vitest';
import { maxEpochMs, parseInstant } from './parse-instant.js';

describe('parseInstant', () => {
  it.each([
    ['2026-11-24T12:00:00Z', Date.UTC(2026, 10, 24, 12)],
    ['2026-11-24t12:00:00z', Date.UTC(2026, 10, 24, 12)],
    ['2026-11-24T12:00:00.5Z', Date.UTC(2026, 10, 24, 12, 0, 0, 500)],
    ['2026-11-24T12:00:00.123456789Z', Date.UTC(2026, 10, 24, 12, 0, 0, 123)],
    ['2026-11-24T14:30:00+02:30', Date.UTC(2026, 10, 24, 12)],
    ['2026-11-24T00:00:00-05:00', Date.UTC(2026, 10, 24, 5)],
    ['2026-11-24', Date.UTC(2026, 10, 24)],
    ['2028-02-29T00:00:00Z', Date.UTC(2028, 1, 29)],
    ['1970-01-01T00:00:00Z', 0],
    ['9999-12-31T23:59:59.999Z', maxEpochMs],
    ['0001-01-01T00:00:00Z', -62_135_596_800_000],
  ])('reads %s', (text, epoch) => {
    expect(parseInstant(text)).toBe(epoch);
  });

  it.each([
    ['an impossible date', '2026-02-30T00:00:00Z'],
    ['February 29th of a common year', '2027-02-29'],
    ['month 13', '2026-13-01'],
    ['day 0', '2026-01-00'],
    ['24:00', '2026-11-24T24:00:00Z'],
    ['minute 60', '2026-11-24T12:60:00Z'],
    ['a leap second', '2026-12-31T23:59:60Z'],
    ['an offset of 24 hours', '2026-11-24T12:00:00+24:00'],
    ['an offset minute of 60', '2026-11-24T12:00:00+01:60'],
    ['no zone (server-local time)', '2026-11-24T12:00:00'],
    ['no seconds', '2026-11-24T12:00Z'],
    ['a fraction of ten digits', '2026-11-24T12:00:00.1234567890Z'],
    ['a space for T', '2026-11-24 12:00:00Z'],
    ['surrounding text', ' 2026-11-24T12:00:00Z'],
    ['an epoch number', '1764000000000'],
    ['a Date.parse-able form', 'Tue, 24 Nov 2026 12:00:00 GMT'],
  ])('refuses %s', (_name, text) => {
    expect(parseInstant(text)).toBeNull();
  });
});
