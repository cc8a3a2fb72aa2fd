import { OSQUERY_VERSION } from './host-identity.js';
import type { QueryRun } from './distributed-queries.js';

/** A status log line as osquery 5's TLS logger sends it (numbers for time, severity and line). */
export interface StatusLogLine {
  hostIdentifier: string;
  calendarTime: string;
  unixTime: number;
  severity: number;
  filename: string;
  line: number;
  message: string;
  version: string;
}

const INFO = 0;
const ERROR = 2;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * What osquery logs about a distributed run when started with `--distributed_loginfo`: each query it executes, and an
 * error line for each that failed, in osquery's wording. The source line numbers are illustrative.
 */
export function distributedStatusLines(
  runs: readonly QueryRun[],
  hostIdentifier: string,
  nowMs: number,
): StatusLogLine[] {
  const line = (severity: number, sourceLine: number, message: string): StatusLogLine => ({
    hostIdentifier,
    calendarTime: asciiTimeUtc(nowMs),
    unixTime: Math.floor(nowMs / 1000),
    severity,
    filename: 'distributed.cpp',
    line: sourceLine,
    message,
    version: OSQUERY_VERSION,
  });
  return runs.flatMap((run) => [
    line(INFO, 112, `Executing distributed query: ${run.name}: ${run.sql}`),
    ...(run.status === 0 ? [] : [line(ERROR, 123, `Error executing distributed query: ${run.name}: ${run.message}`)]),
  ]);
}

/** C's asctime() in UTC, trimmed, plus " UTC" (osquery's toAsciiTimeUTC): `Mon Mar  2 09:05:00 2026 UTC`. */
export function asciiTimeUtc(nowMs: number): string {
  const date = new Date(nowMs);
  const two = (value: number) => String(value).padStart(2, '0');
  const time = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
  return `${DAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${String(date.getUTCDate()).padStart(2, ' ')} ${time} ${date.getUTCFullYear()} UTC`;
}
