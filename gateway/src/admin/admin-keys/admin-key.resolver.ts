import { isCapability } from '../capabilities.js';
import { bearerOf, type Principal, type PrincipalResolver } from '../principal.js';
import { scopesForCapabilities } from '../scopes.js';
import type { AdminKeyRecord } from './admin-key.schema.js';
import { looksLikeAdminKey, type AdminKeyStore } from './admin-key.store.js';
import { gatewayError } from '../../errors.js';

export const adminKeyStoreUnavailable = () => gatewayError('admin_key_store_unavailable');

/** The principal an admin API key stands for: its grant, fixed at mint time. */
export function principalOfAdminKey(record: AdminKeyRecord): Principal {
  const caps = (record.caps ?? []).filter(isCapability);
  const held = new Set(caps);
  return {
    kind: 'api-key',
    actor: `apikey:${record.id}`,
    capabilities: held,
    scopes: record.caps ? scopesForCapabilities(held) : new Set(record.scopes ?? []),
    deploymentOwner: record.tenant === null,
    tenant: record.tenant,
    legacyAccess: record.caps !== null,
    keyId: record.id,
  };
}

/**
 * `aak_` bearers, read from the store on every request so a revocation holds on the next request on every replica
 *. A store outage fails closed with 503 `admin_key_store_unavailable` (the contract other rule 4); the
 * admin token resolves before this and never touches the store.
 */
export function adminKeyResolver(store: AdminKeyStore): PrincipalResolver {
  return {
    async resolve(request) {
      const bearer = bearerOf(request);
      if (!bearer || !looksLikeAdminKey(bearer)) return null;
      let record: AdminKeyRecord | null;
      try {
        record = await store.lookup(bearer);
      } catch (error) {
        request.log.warn({ err: error }, 'admin key store unavailable');
        throw adminKeyStoreUnavailable();
      }
      return record?.status === 'active' ? principalOfAdminKey(record) : null;
    },
  };
}
