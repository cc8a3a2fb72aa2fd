import type { KeyReach } from '../../keys/key.store.js';
import type { Principal } from '../principal.js';

/**
 * spec 000 §5: in fleet mode a tenant-bound principal reaches its own tenant's keys only; deployment principals (tenant
 * null) reach every key. Outside fleet mode a principal's tenant binds nothing, as for every other admin resource.
 */
export function keyReachOf(fleetMode: boolean): (principal: Principal) => KeyReach {
  return (principal) => (fleetMode && principal.tenant !== null ? { tenant: principal.tenant } : {});
}
