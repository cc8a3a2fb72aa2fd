import type { Clock, Db } from '@gw/platform';
import { ScimGroupStore } from './scim-groups.store.js';
import { ScimSettingsStore } from './scim-settings.store.js';
import { ScimUserStore } from './scim-users.store.js';

/** Inbound SCIM's stores (spec 000 §4.9): provisioning settings, users and groups. */
export interface ScimDeps {
  settings: ScimSettingsStore;
  users: ScimUserStore;
  groups: ScimGroupStore;
}

export function composeScim(db: Db, clock: Clock): ScimDeps {
  const users = new ScimUserStore(db, clock);
  return { settings: new ScimSettingsStore(db, clock), users, groups: new ScimGroupStore(db, clock, users) };
}
