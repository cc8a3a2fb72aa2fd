import type { z } from 'zod';
import { AppError } from './errors.js';

/**
 * A service's coded errors as data: each entry says what a caller sees (status, code, the envelope that carries it,
 * the default message) and whether retrying can help. Call sites raise an entry by its key, with a message of their
 * own where it says more; the OpenAPI error responses are generated from the same entries, so the document and the
 * wire cannot disagree.
 */
export interface ErrorCatalogEntry {
  status: number;
  /** The wire code; defaults to the entry's key. Set when one code answers with two statuses (two entries). */
  code?: string;
  /** Which of the service's envelopes carry the error (the service names its envelopes). */
  envelope: string | readonly string[];
  message: string;
  retryable?: boolean;
  headers?: Readonly<Record<string, string>>;
}

export type ErrorCatalog = Readonly<Record<string, ErrorCatalogEntry>>;

/** What a call site may add to an entry: its own message, headers (`retry-after`), details for the error handler. */
export interface RaiseOptions {
  headers?: Record<string, string>;
  details?: Record<string, unknown>;
  cause?: unknown;
  retryable?: boolean;
}

/** The envelopes an entry names, as a list. */
export function envelopesOf(entry: ErrorCatalogEntry): readonly string[] {
  return typeof entry.envelope === 'string' ? [entry.envelope] : entry.envelope;
}

/** Declares a catalog; `const` keeps the keys literal so a call site cannot name an entry that does not exist. */
export function defineErrorCatalog<const Catalog extends ErrorCatalog>(catalog: Catalog): Catalog {
  return catalog;
}

/** The wire code of an entry. */
export function codeOf(catalog: ErrorCatalog, key: string): string {
  return catalog[key]?.code ?? key;
}

/** An error of the catalog, as a value: `raise('not_found', 'provider x not found')`. */
export type Raise<Catalog extends ErrorCatalog> = (
  key: keyof Catalog & string,
  message?: string,
  options?: RaiseOptions,
) => AppError;

/** The service's one way to build a coded error from its catalog. */
export function errorRaiser<Catalog extends ErrorCatalog>(catalog: Catalog): Raise<Catalog> {
  return (key, message, options = {}) => {
    const entry: ErrorCatalogEntry = catalog[key];
    const headers = entry.headers || options.headers ? { ...entry.headers, ...options.headers } : undefined;
    return new AppError({
      status: entry.status,
      code: entry.code ?? key,
      message: message ?? entry.message,
      retryable: options.retryable ?? entry.retryable ?? false,
      ...(headers ? { headers } : {}),
      ...(options.details ? { details: options.details } : {}),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
  };
}

/** Codes by status for the entries `include` keeps, in catalog order, each code once. */
export function codesByStatus(
  catalog: ErrorCatalog,
  include: (entry: ErrorCatalogEntry, key: string) => boolean = () => true,
): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  for (const [key, entry] of Object.entries(catalog)) {
    if (!include(entry, key)) continue;
    const codes = byStatus.get(entry.status) ?? [];
    const code = entry.code ?? key;
    if (!codes.includes(code)) codes.push(code);
    byStatus.set(entry.status, codes);
  }
  return byStatus;
}

/** "`a`, `b`": the codes as the OpenAPI descriptions list them. */
export const listCodes = (codes: readonly string[]): string => codes.map((code) => `\`${code}\``).join(', ');

/**
 * A route's error responses for its `schema.response`: one envelope schema per status the listed entries answer
 * with, described by the codes it can carry (the OpenAPI response description).
 */
export function errorResponseSchemas<Catalog extends ErrorCatalog, Envelope extends z.ZodType>(
  catalog: Catalog,
  keys: readonly (keyof Catalog & string)[],
  envelope: Envelope,
): Record<number, Envelope> {
  const listed = new Set<string>(keys);
  const responses: Record<number, Envelope> = {};
  for (const [status, codes] of codesByStatus(catalog, (_entry, key) => listed.has(key))) {
    responses[status] = envelope.describe(`Codes: ${listCodes(codes)}.`);
  }
  return responses;
}

/**
 * What every service answers alike before its own catalog is reached: requests the HTTP framework or a recursive walk
 * refused. Their code is each catalog's `invalid_request`; a framework refusal keeps the framework's status (almost
 * always 400; a URL the router cannot decode is another 4xx), which no catalog entry could fix in advance.
 */
export const frameworkErrors = {
  refused: (status: number, message: string) => new AppError({ status, code: 'invalid_request', message }),
  nestedTooDeeply: (cause: unknown) =>
    new AppError({
      status: 400,
      code: 'invalid_request',
      message: 'The request body is nested too deeply to process.',
      cause,
    }),
};
