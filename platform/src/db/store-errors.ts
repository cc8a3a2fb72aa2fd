/**
 * Telling a store that cannot serve from a statement the store refused. Both pg and PGlite answer with the
 * server's SQLSTATE in `code` (and a `severity`); a connection that never answered fails with a Node network error.
 */

/** SQLSTATE classes that say the store itself cannot serve: 08 connection, 53 resources, 57 operator intervention
 * (shutdown, cancel, timeouts), 58 system error, XX internal error. */
const faultClasses = new Set(['08', '53', '57', '58', 'XX']);

/** Network failures of a connection to the store (pg surfaces Node's errno codes). */
const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** pg's own connection failures carry no code, only these messages. */
const connectionMessages =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** The SQLSTATE of an error the database answered with; undefined when no database answered. */
export function sqlStateOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** The database refused the values of this statement (SQLSTATE class 22 data exception or 23 integrity violation). */
export function isDataRejection(error: unknown): boolean {
  const code = sqlStateOf(error);
  return code !== undefined && (code.startsWith('22') || code.startsWith('23'));
}

/**
 * Whether a failed store call says the store is unwell, for a caller that only ever calls the store: an error
 * without a SQLSTATE never reached a database that answered (timeout, refused or reset connection, pool exhausted).
 */
export function isStoreFault(error: unknown): boolean {
  const code = sqlStateOf(error);
  return code === undefined || faultClasses.has(code.slice(0, 2));
}

/**
 * Positive evidence that the store could not serve (a fault SQLSTATE, a network failure, a pg connection failure),
 * for a handler whose other errors are bugs: those must stay 500s, an outage is a 503 the caller may retry.
 */
export function isStoreUnavailable(error: unknown): boolean {
  const code = sqlStateOf(error);
  if (code !== undefined) return faultClasses.has(code.slice(0, 2));
  if (!(error instanceof Error)) return false;
  const errno = (error as NodeJS.ErrnoException).code;
  return (typeof errno === 'string' && connectionCodes.has(errno)) || connectionMessages.test(error.message);
}
