import type { StashOwner } from '../stash/stash-entry.js';

/** The deployment tenant: what a call means when neither a per-tenant bearer nor its metadata names one. */
export const defaultTenant = 'default';

/** The caller ids metadata may carry (optimize, cache, recall and retrieve bodies alike). */
export interface CallerNames {
  tenant?: string | undefined;
  user?: string | undefined;
  team?: string | undefined;
}

/** An empty or whitespace-only id names nobody: every partition, owner and holdout principal reads it as absent. */
export function nonBlank(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/**
 * The tenant a call acts for: a per-tenant bearer's, which beats anything metadata claims, else
 * the one metadata names, else the deployment tenant.
 */
export function callerTenant(names: CallerNames | undefined, bearerTenant?: string): string {
  return bearerTenant ?? nonBlank(names?.tenant) ?? defaultTenant;
}

/**
 * Who a call is: its tenant and the attributed user and team. The owner of what it stashes, and whose handles,
 * recall rows, guard lane and conversations are its own.
 */
export function callerOwner(names: CallerNames | undefined, bearerTenant?: string): StashOwner {
  const user = nonBlank(names?.user);
  const team = nonBlank(names?.team);
  return {
    tenant: callerTenant(names, bearerTenant),
    ...(user === undefined ? {} : { user }),
    ...(team === undefined ? {} : { team }),
  };
}

/** One owner's conversations apart from another's: tenant, then the user, else the team. */
export function ownerKey(owner: StashOwner): string {
  return `${owner.tenant}\u0000${owner.user ?? owner.team ?? ''}`;
}

/** The metadata a hook acts on: a per-tenant bearer's tenant in place of the one the caller claims. */
export function withBearerTenant<Metadata extends CallerNames>(
  metadata: Metadata | undefined,
  bearerTenant: string | undefined,
): Metadata | undefined {
  return bearerTenant === undefined ? metadata : ({ ...metadata, tenant: bearerTenant } as Metadata);
}
