import { gatewayError } from '../../errors.js';
import type { Capability } from '../capabilities.js';
import { adminErrors } from '../error-envelope.js';
import { hasScope, type Principal } from '../principal.js';
import { isGrantableCapability, isGrantableScope, isKnownScope } from '../scopes.js';

/**
 * The grant is fixed at mint time, never exceeds the minter's access, and never includes content,
 * content mode, SSO config, self-update or key management. Ungrantable or unknown entries are a bad request (400,
 * whoever asks); entries the minter does not hold are a 403 naming what is missing.
 */
export function assertGrantable(
  grant: { caps?: readonly Capability[] | undefined; scopes?: readonly string[] | undefined },
  minter: Principal,
): void {
  for (const capability of grant.caps ?? []) {
    if (!isGrantableCapability(capability))
      throw gatewayError('invalid_request', `body.caps: ${capability} cannot be granted to an admin API key`);
  }
  for (const scope of grant.scopes ?? []) {
    if (!isKnownScope(scope))
      throw gatewayError('invalid_request', `body.scopes: ${scope} is not a Management API v1 scope`);
    if (!isGrantableScope(scope))
      throw gatewayError('invalid_request', `body.scopes: ${scope} cannot be granted to an admin API key`);
  }
  for (const capability of grant.caps ?? []) {
    if (!minter.capabilities.has(capability)) throw adminErrors.missingCapability(capability);
  }
  for (const scope of grant.scopes ?? []) {
    if (!hasScope(minter, scope)) throw adminErrors.insufficientScope(scope);
  }
}
