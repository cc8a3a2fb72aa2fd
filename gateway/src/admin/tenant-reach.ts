import type { Principal } from './principal.js';

/**
 * In fleet mode a tenant-bound principal reaches its own tenant's resources only; deployment principals
 * (tenant null) reach every tenant's. Outside fleet mode a principal's tenant binds nothing. The one place that says
 * which tenant, if any, binds an admin call (keys, enrollment links, seats, directives, endpoint control, playground).
 */
export function boundTenantOf(fleetMode: boolean, principal: Principal): string | null {
  return fleetMode ? principal.tenant : null;
}

/** The same as a store filter: `{tenant}` for a bound principal, `{}` (every tenant) otherwise. */
export function tenantReachOf(fleetMode: boolean): (principal: Principal) => { tenant?: string } {
  return (principal) => {
    const tenant = boundTenantOf(fleetMode, principal);
    return tenant === null ? {} : { tenant };
  };
}
