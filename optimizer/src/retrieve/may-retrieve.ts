import { defaultTenant } from '../cache/partition.js';
import type { StashOwner } from '../stash/stash-entry.js';

/** The caller ids a retrieve may name in its metadata (the gateway sends `user` and `team`, spec 001 §2.4). */
export interface RetrieveNames {
  user?: string | undefined;
  team?: string | undefined;
  tenant?: string | undefined;
}

/**
 * Whether a stashed original may be returned to this retrieve. A per-tenant bearer sees only its tenant's handles.
 * A retrieve that names a caller (user, team or tenant) sees only that caller's handles: a user's only by that user
 * in the same tenant; one stashed without a user only by a caller without a user in the same team and tenant. A
 * retrieve that names nobody (gateways before the rule) trusts the bearer. The tenant resolves as the stash owner's
 * did at optimize: the bearer's, else the metadata's, else `default`.
 */
export function mayRetrieve(owner: StashOwner, names: RetrieveNames | undefined, bearerTenant: string | undefined): boolean {
  if (bearerTenant !== undefined && owner.tenant !== bearerTenant) return false;
  if (names?.user === undefined && names?.team === undefined && names?.tenant === undefined) return true;
  if (owner.tenant !== (bearerTenant ?? names.tenant ?? defaultTenant)) return false;
  const user = idOf(owner.user);
  if (user !== undefined) return idOf(names.user) === user;
  return idOf(names.user) === undefined && idOf(names.team) === idOf(owner.team);
}

/** An empty id is no id: the durable tier stores it as NULL, so a row read back has none either. */
function idOf(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}
