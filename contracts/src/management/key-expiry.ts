const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/i;

/** The range a key expiry may take: what both stores hold and `toISOString()` prints as a plain RFC 3339 string. */
export const earliestExpiry = Date.UTC(1970, 0, 1);
export const latestExpiry = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const keyExpiryRangeMessage = 'must be an instant between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z';

/**
 * The UTC instant an RFC 3339 date-time names, or null when it names none we can store: a calendar date that does
 * not exist, or an instant outside 1970–9999 once its offset is applied (`9999-12-31T23:59:59-23:59` is in year
 * 10000, `2030-01-01T00:00:00+16:00` is a valid instant Postgres refuses to parse with that offset).
 */
export function parseKeyExpiry(value: string): Date | null {
  const match = dateTimePattern.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const milliseconds = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offsetMinutes = match[8] ? (match[8] === '-' ? -1 : 1) * (Number(match[9]) * 60 + Number(match[10])) : 0;
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    Math.abs(offsetMinutes) >= 24 * 60
  )
    return null;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  if (wall.getUTCFullYear() !== year || wall.getUTCMonth() !== month - 1 || wall.getUTCDate() !== day) return null;
  wall.setUTCHours(hour, minute, second, milliseconds);
  const instant = wall.getTime() - offsetMinutes * 60_000;
  return instant >= earliestExpiry && instant <= latestExpiry ? new Date(instant) : null;
}
