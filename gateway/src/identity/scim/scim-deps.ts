import type { Clock, Db } from '@gw/platform';
import { ProvisioningTokenStore } from '../provisioning/provisioning-token.store.js';
import { ScimGroupStore } from './scim-groups.store.js';
import { ScimSettingsStore } from './scim-settings.store.js';
import { ScimUserStore } from './scim-users.store.js';

/** Inbound SCIM's stores: provisioning settings, users and groups. */
export interface ScimDeps {
  settings: ScimSettingsStore;
  users: ScimUserStore;
  groups: ScimGroupStore;
  /** Provisioning tokens (`prv_`): the SCIM surface and the admin plane accept them by scope. */
  provisioningTokens: ProvisioningTokenStore;
}

export function composeScim(db: Db, clock: Clock): ScimDeps {
  const users = new ScimUserStore(db, clock);
  return {
    settings: new ScimSettingsStore(db, clock),
    users,
    groups: new ScimGroupStore(db, clock, users),
    provisioningTokens: new ProvisioningTokenStore(db, clock),
  };
}
