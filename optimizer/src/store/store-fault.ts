import { optimizerErrors } from '../errors.js';

/**
 * SQLSTATE classes that say the store itself cannot serve: 08 connection exception, 53 insufficient resources,
 * 57 operator intervention (shutdown, cancel, timeouts), 58 system error, XX internal error.
 */
const faultClasses = new Set(['08', '53', '57', '58', 'XX']);

/** The SQLSTATE of an error the database answered with (pg and PGlite both carry `severity` and `code`). */
function sqlStateOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/**
 * Whether a failed store call says the store is unwell, which is what may open the retrieval store's five-minute
 * circuit (spec 001 §3.3 `cooldown`). An error without a SQLSTATE never reached a database that answered (timeout,
 * refused or reset connection, pool exhausted): a fault. A SQLSTATE outside the fault classes is the database
 * refusing this statement, typically for what the caller sent (class 22 data exception, 23 integrity violation):
 * that call fails alone and the store stays open for everyone else.
 */
export function isStoreFault(error: unknown): boolean {
  const code = sqlStateOf(error);
  return code === undefined || faultClasses.has(code.slice(0, 2));
}

/** The database refused the values of this statement (SQLSTATE class 22 or 23): the caller's data, not the store. */
function isDataRejection(error: unknown): boolean {
  const code = sqlStateOf(error);
  return code !== undefined && (code.startsWith('22') || code.startsWith('23'));
}

/**
 * Runs a write of what a request sent. The body's schema is meant to keep out what the store cannot hold; should a
 * value still be refused (SQLSTATE 22/23), that is the caller's data: a 400 naming the body, never a 500.
 */
export async function writeCallerData<T>(work: () => Promise<T>, body: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDataRejection(error)) throw optimizerErrors.invalidRequest(`the store refused a value of this ${body}`);
    throw error;
  }
}
