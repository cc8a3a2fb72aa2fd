import { isoInstant } from './iso-instant.js';

/** A stored timestamp (pg gives a Date, PGlite may give a string) as ISO 8601. */
export function isoTimestamp(value: Date | string): string {
  return isoInstant(typeof value === 'string' ? new Date(value).getTime() : value.getTime());
}

/** A stored timestamp as ISO 8601, or null for a null column. */
export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : isoTimestamp(value);
}
