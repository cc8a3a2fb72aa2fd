import type { KeyReach } from '../key.store.js';
import type { Principal } from '../../../admin/principal.js';
import { tenantReachOf } from '../../../admin/tenant-reach.js';

/** Which keys an admin call reaches: its tenant's in fleet mode for a tenant-bound principal, else all. */
export function keyReachOf(fleetMode: boolean): (principal: Principal) => KeyReach {
  return tenantReachOf(fleetMode);
}
