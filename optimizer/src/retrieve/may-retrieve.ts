import { callerOwner, nonBlank, type CallerNames } from '../http/caller-owner.js';
import type { StashOwner } from '../stash/stash-entry.js';

/**
 * Whether a stashed original may be returned to this retrieve. A per-tenant bearer sees only its tenant's handles.
 * A retrieve that names a caller (user, team or tenant; the gateway sends `user` and `team`) sees only
 * that caller's handles: a user's only by that user in the same tenant; one stashed without a user only by a caller
 * without a user in the same team and tenant. A retrieve that names nobody (gateways before the rule) trusts the
 * bearer. The caller resolves as the stash owner did at optimize (`callerOwner`). Reads only the owner, which the
 * durable tier keeps in the clear: it is asked before any row is decrypted.
 */
export function mayRetrieve(
  owner: StashOwner,
  names: CallerNames | undefined,
  bearerTenant: string | undefined,
): boolean {
  if (bearerTenant !== undefined && owner.tenant !== bearerTenant) return false;
  // Presence, not content: a retrieve naming a blank id is held to the rule, never trusted like one naming nobody.
  if (names?.user === undefined && names?.team === undefined && names?.tenant === undefined) return true;
  const caller = callerOwner(names, bearerTenant);
  if (owner.tenant !== caller.tenant) return false;
  // A row stashed before owners were normalised may hold a blank id, which names nobody just the same.
  const user = nonBlank(owner.user);
  if (user !== undefined) return caller.user === user;
  return caller.user === undefined && caller.team === nonBlank(owner.team);
}
