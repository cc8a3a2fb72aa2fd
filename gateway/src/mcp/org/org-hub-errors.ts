import { AppError } from '@gw/platform';

/** Coded errors of `/mcp/org`, answered in the machine envelope like every client-key surface (spec 000 §7). */
export const orgHubErrors = {
  missingCredential: () => new AppError({ status: 401, code: 'missing_key', message: 'Send a client key, or an access token from the organization’s identity provider, as Authorization: Bearer.' }),
  invalidToken: (reason: string) => new AppError({ status: 401, code: 'invalid_token', message: `The access token was refused: ${reason}.` }),
  tokenLaneOff: () => new AppError({ status: 401, code: 'key_unknown', message: 'Only client keys are accepted here: this gateway runs no organization identity lane.' }),
  identityProviderUnavailable: () => new AppError({ status: 503, code: 'identity_provider_unavailable', message: 'The identity provider’s keys could not be fetched; retry shortly.', retryable: true, headers: { 'retry-after': '5' } }),
  billingUnavailable: () => new AppError({ status: 503, code: 'billing_unavailable', message: 'Membership could not be checked with billing; retry shortly.', retryable: true, headers: { 'retry-after': '5' } }),
  unconfirmed: () =>
    new AppError({ status: 503, code: 'org_hub_unconfirmed', message: 'An operator has not yet confirmed the organization policy and this hub’s exact URL with billing.', retryable: true, headers: { 'retry-after': '60' } }),
  refused: (code: string) => new AppError({ status: 403, code, message: 'The organization does not admit this member to the hub.' }),
  userDeactivated: () => new AppError({ status: 403, code: 'user_deactivated', message: 'This developer’s access is revoked or deactivated.' }),
  throttled: (retryAfterMs: number, what: string) =>
    new AppError({ status: 429, code: 'rate_limited', message: `Too many ${what}; retry after the Retry-After seconds.`, headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) } }),
} as const;
