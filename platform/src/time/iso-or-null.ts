/** A stored timestamp (pg gives a Date, PGlite may give a string) as ISO 8601, or null for a null column. */
export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}
