/** The last instant written with a four-digit year, 9999-12-31T23:59:59.999Z; both JS dates and Postgres hold it. */
export const maxEpochMs = 253_402_300_799_999;

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|([+-])(\d{2}):(\d{2})))?$/;

/**
 * Epoch milliseconds of an RFC 3339 date-time (`Z` or a numeric offset, at most nine fraction digits), or of a full
 * date alone (midnight UTC); null for anything else. The range is the caller's to check (against `maxEpochMs`, or a
 * store's own bounds). `Date.parse` is not strict enough: it rolls impossible dates over (February 30th is
 * March 2nd, 24:00 is the next day) and reads a date-time without a zone as the server's local time. Here every
 * field must be in range and the date must exist.
 */
export function parseInstant(text: string): number | null {
  const match = rfc3339.exec(text);
  if (!match) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map((field) => (field === undefined ? undefined : Number(field)));
  if (year === undefined || month === undefined || day === undefined) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetHours = Number(match[10] ?? 0);
  const offsetMinutes = Number(match[11] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  const milliseconds = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offsetMs = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return date.getTime() + ((hour * 60 + minute) * 60 + second) * 1000 + milliseconds - offsetMs;
}
