import type { GatewayDeps } from './deps.js';
import { AuthFailureGuard } from './chain/edge/auth-failure-guard.js';
import type { IdentityChainDeps } from './chain/index.js';

/** The identity stage wired from the gateway's deps, shared by `/v1/*` and the client-key surfaces (`/mcp`, `/connect`). */
export function identityChainDeps(
  deps: Pick<GatewayDeps, 'audit' | 'clock' | 'config' | 'coord' | 'keys' | 'settings'>,
): IdentityChainDeps {
  return {
    keys: deps.keys,
    clock: deps.clock,
    authFailureGuard: new AuthFailureGuard(deps.coord),
    identityMode: () => deps.settings.get().identityMode,
    multiTenant: deps.config.GW_MULTI_TENANT,
    recordRejection: (rejection) => deps.audit.recordAuthRejection(rejection),
  };
}
