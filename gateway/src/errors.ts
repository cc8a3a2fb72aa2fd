import { AppError } from '@gw/platform';

/**
 * The gateway's coded errors (spec 000 §7). Each surface renders them in its own envelope: the machine envelope for
 * key failures, OpenAI or Messages shapes on inference routes, the v1 envelope on /admin/v1.
 */

/** The codes of the machine envelope for client-key failures; the OpenAPI document publishes this list. */
export const keyFailureCodes = ['missing_key', 'key_unknown', 'key_expired', 'key_revoked', 'user_deactivated', 'key_store_unavailable'] as const;
export type KeyFailureCode = (typeof keyFailureCodes)[number];

// Fixed message (spec 000 §7): a valid client key is required; the hint is safe to show and says what to do.
const keyFailureHints: Readonly<Record<KeyFailureCode, string>> = {
  missing_key: 'Send your gw client key as "Authorization: Bearer ark_…", "x-gw-api-key" or "x-api-key".',
  key_unknown: 'The key is not recognised. Check for copy errors or ask your administrator for a new key.',
  key_expired: 'The key has expired. Sign in again with the connect CLI or ask your administrator for a new key.',
  key_revoked: 'The key was revoked. Ask your administrator for a new key.',
  user_deactivated: 'Your account is deactivated in the identity provider. Contact your administrator.',
  key_store_unavailable: 'The gateway cannot reach its key store. This is an infrastructure fault, not a problem with your key; retry shortly.',
};

export class KeyFailure extends AppError {
  constructor(readonly failure: KeyFailureCode) {
    super({
      status: failure === 'key_store_unavailable' ? 503 : 401,
      code: failure,
      message: failure === 'key_store_unavailable' ? 'The key store is unavailable; a valid client key cannot be verified right now.' : 'A valid client key is required.',
      retryable: failure === 'key_store_unavailable',
    });
  }
  get hint(): string {
    return keyFailureHints[this.failure];
  }
}

export const gatewayErrors = {
  invalidRequest: (message: string) => new AppError({ status: 400, code: 'invalid_request', message }),
  notFound: (what: string) => new AppError({ status: 404, code: 'not_found', message: `${what} not found` }),
  conflict: (message: string) => new AppError({ status: 409, code: 'conflict', message }),
  tooManyAuthFailures: (retryAfterSeconds: number) =>
    new AppError({ status: 429, code: 'auth_failures_throttled', message: 'Too many requests with invalid keys from this address; slow down.', headers: { 'retry-after': String(retryAfterSeconds) } }),
};
