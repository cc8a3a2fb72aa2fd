import { describe, expect, it } from 'vitest';
import { parseKeyExpiry } from './key-expiry.js';

describe('parseKeyExpiry', () => {
  it.each([
    ['2030-01-01T00:00:00Z', '2030-01-01T00:00:00.000Z'],
    ['2030-01-01T00:00:00+16:00', '2029-12-31T08:00:00.000Z'],
    ['2030-01-01T00:00:00-23:59', '2030-01-01T23:59:00.000Z'],
    ['2030-06-15T12:30:45.123456+02:00', '2030-06-15T10:30:45.123Z'],
    ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00.000Z'],
    ['1970-01-01T10:00:00+10:00', '1970-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:59Z', '9999-12-31T23:59:59.000Z'],
    ['9999-12-31T23:59:59.999+00:00', '9999-12-31T23:59:59.999Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
  ])('normalises %s to the UTC instant %s', (input, utc) => {
    expect(parseKeyExpiry(input)?.toISOString()).toBe(utc);
  });

  it.each([
    ['year 0', '0000-01-01T00:00:00Z'],
    ['year 50 (Date.UTC would read it as 1950)', '0050-01-01T00:00:00Z'],
    ['before 1970', '1969-12-31T23:59:59Z'],
    ['before 1970 once the offset is applied', '1970-01-01T00:00:00+00:01'],
    ['after 9999 once the offset is applied', '9999-12-31T23:59:59-23:59'],
    ['a day that does not exist', '2030-02-30T00:00:00Z'],
    ['a leap day in a common year', '2029-02-29T00:00:00Z'],
    ['month 13', '2030-13-01T00:00:00Z'],
    ['hour 24', '2030-01-01T24:00:00Z'],
    ['an offset of 24 hours', '2030-01-01T00:00:00+24:00'],
    ['no offset', '2030-01-01T00:00:00'],
    ['a date only', '2030-01-01'],
    ['garbage', 'soon'],
  ])('refuses %s', (_case, input) => {
    expect(parseKeyExpiry(input)).toBeNull();
  });
});
