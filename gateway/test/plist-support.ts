import type { PlistValue } from 'plist';

/** A configuration profile's dictionary, as a test reads it. */
export type PlistDict = Record<string, PlistValue>;

/** The dictionary a parsed profile holds at this place; anything else fails the test here, with what it found. */
export function asDict(value: PlistValue | undefined): PlistDict {
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    value instanceof Date ||
    value instanceof Uint8Array
  )
    throw new Error(`expected a plist dictionary, found ${typeof value}`);
  return value;
}

/** A name-based (version 5) UUID in upper case, as Apple profiles carry their stable identifiers. */
export const nameBasedUuid = /^[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/;
