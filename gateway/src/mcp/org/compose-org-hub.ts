import type { Clock, Coord, Db } from '@gw/platform';
import type { GatewayConfig } from '../../config.js';
import type { EntitlementDeps } from '../../billing/entitlement-deps.js';
import { orgHubSettingsOf, type OrgHubSettings } from './org-hub-settings.js';
import { OrgMemberResolver } from './org-member-resolver.js';
import { OrgTokenVerifier } from './org-token-verifier.js';

/** The hosted-identity lane of `/mcp/org`: on when an issuer and the public URL are set and billing is connected. */
export function composeOrgHub(deps: {
  config: GatewayConfig;
  entitlement: Pick<EntitlementDeps, 'billing'>;
  coord: Coord;
  db: Db;
  clock: Clock;
}): { settings: OrgHubSettings; members: OrgMemberResolver } | null {
  const settings = orgHubSettingsOf(deps.config);
  const billing = deps.entitlement.billing;
  if (!settings || !billing) return null;
  const verifier = new OrgTokenVerifier(settings, deps.clock);
  return {
    settings,
    members: new OrgMemberResolver({ settings, verifier, billing, coord: deps.coord, db: deps.db, clock: deps.clock }),
  };
}
