import type { OrgHubRefusal } from '@gw/contracts';
import { gatewayError } from '../../errors.js';

/** Coded errors of `/mcp/org`, from the gateway's catalog, answered in the machine envelope like every client-key surface. */
export const orgHubErrors = {
  missingCredential: () =>
    gatewayError(
      'missing_key',
      'Send a client key, or an access token from the organization’s identity provider, as Authorization: Bearer.',
    ),
  invalidToken: (reason: string) => gatewayError('invalid_token', `The access token was refused: ${reason}.`),
  tokenLaneOff: () =>
    gatewayError('key_unknown', 'Only client keys are accepted here: this gateway runs no organization identity lane.'),
  identityProviderUnavailable: () => gatewayError('identity_provider_unavailable'),
  billingUnavailable: () =>
    gatewayError('billing_unavailable', 'Membership could not be checked with billing; retry shortly.', {
      headers: { 'retry-after': '5' },
    }),
  unconfirmed: () => gatewayError('org_hub_unconfirmed'),
  refused: (code: OrgHubRefusal | 'org_member_refused') => gatewayError(code),
  userDeactivated: () => gatewayError('user_access_revoked'),
  throttled: (retryAfterMs: number, what: string) =>
    gatewayError('rate_limited', `Too many ${what}; retry after the Retry-After seconds.`, {
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
    }),
} as const;
