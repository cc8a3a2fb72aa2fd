import { AppError, defineErrorCatalog, envelopesOf, errorRaiser, type ErrorCatalogEntry } from '@gw/platform';
import { conflictAndLimitErrors } from './shared/errors-conflicts-and-limits.js';
import { failedCallErrors } from './shared/errors-failures.js';
import { refusedRequestErrors } from './shared/errors-refused.js';

/**
 * The gateway's one catalog of coded errors: what a caller sees (status, code, default message) and whether a retry
 * can help. `envelope` names the surfaces whose envelope carries the code: `inference` (the OpenAI or Messages shape
 * on `/v1/*`), `key-failure` (the fixed machine envelope for client-key failures), `admin` (the v1 envelope with
 * `request_id` on `/admin/v1`, `{error: {code, message}}` on legacy `/admin`), `connect` (the connect API's machine
 * envelope), `mcp` (the tool servers) and `cli-login`. Call sites raise an entry by its key with `gatewayError`,
 * giving a specific message where it says more; the inference plane's OpenAPI error responses are generated from the
 * entries its envelope carries (`src/service/docs/inference-errors.ts`). An entry whose key is not its wire code is
 * a second status for that code.
 */
export const gatewayErrorCatalog = defineErrorCatalog({
  ...refusedRequestErrors,
  ...conflictAndLimitErrors,
  ...failedCallErrors,
});

export type GatewayErrorKey = keyof typeof gatewayErrorCatalog;

/** Raises a gateway error by its catalog key, with a specific message where it says more. */
export const gatewayError = errorRaiser(gatewayErrorCatalog);

/** Whether an entry's envelope is the named surface's (a filter for `codesByStatus`). */
export const carriedBy = (envelope: string) => (entry: ErrorCatalogEntry) => envelopesOf(entry).includes(envelope);

/** The codes of the machine envelope for client-key failures; the OpenAPI document publishes this list. */
export const keyFailureCodes = [
  'missing_key',
  'key_unknown',
  'key_expired',
  'key_revoked',
  'user_deactivated',
  'key_store_unavailable',
] as const satisfies readonly GatewayErrorKey[];
export type KeyFailureCode = (typeof keyFailureCodes)[number];

// A fixed message: a valid client key is required; the hint is safe to show and says what to do.
const keyFailureHints: Readonly<Record<KeyFailureCode, string>> = {
  missing_key: 'Send your gw client key as "Authorization: Bearer ark_…", "x-gw-api-key" or "x-api-key".',
  key_unknown: 'The key is not recognised. Check for copy errors or ask your administrator for a new key.',
  key_expired: 'The key has expired. Sign in again with the connect CLI or ask your administrator for a new key.',
  key_revoked: 'The key was revoked. Ask your administrator for a new key.',
  user_deactivated: 'Your account is deactivated in the identity provider. Contact your administrator.',
  key_store_unavailable:
    'The gateway cannot reach its key store. This is an infrastructure fault, not a problem with your key; retry shortly.',
};

/** A client-key failure: the catalog's entry, rendered in the machine envelope with its hint. */
export class KeyFailure extends AppError {
  constructor(readonly failure: KeyFailureCode) {
    const entry: ErrorCatalogEntry = gatewayErrorCatalog[failure];
    super({ status: entry.status, code: failure, message: entry.message, retryable: entry.retryable ?? false });
  }
  get hint(): string {
    return keyFailureHints[this.failure];
  }
}

/** The errors whose message is built from what the call site knows. */
export const gatewayErrors = {
  notFound: (what: string) => gatewayError('not_found', `${what} not found`),
  tooManyAuthFailures: (retryAfterSeconds: number) =>
    gatewayError('auth_failures_throttled', undefined, { headers: { 'retry-after': String(retryAfterSeconds) } }),
};

/**
 * An error whose code another party chose, relayed with its status: the optimizer's or the evidence service's own
 * verdict on a request (their catalogs and OpenAPI documents list those codes), or a provider's HTTP status as
 * `upstream_<status>`. The gateway owns none of these codes, so none is a catalog entry; this is the one place such an
 * error is built.
 */
export function relayedError(input: {
  status: number;
  code: string;
  message: string;
  headers?: Record<string, string>;
}): AppError {
  return new AppError({ ...input, retryable: false });
}
