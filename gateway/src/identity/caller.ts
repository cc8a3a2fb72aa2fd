import { isoInstant } from '@gw/platform';
import type { KeyStore } from './keys/key.store.js';
import type { KeyRecord } from './keys/key.schema.js';
import { looksLikeClientKey } from './keys/key-token.js';
import { KeyFailure } from '../errors.js';

/** Who is calling, bound from the key: user and team are never overridable by `x-gw-metadata`. */
export interface Identity {
  keyId: string;
  keyType: 'client' | 'service';
  user: string | null;
  team: string;
  /** Service key display name (service keys have no user). */
  name: string | null;
  key: KeyRecord;
  /** Extra attribution from `x-gw-metadata` (never user or team). */
  metadata: Record<string, string>;
}

/** Resolve a raw key to an identity or throw the precise key failure. Fails closed when the store is down. */
export async function resolveIdentity(keys: KeyStore, rawKey: string | null): Promise<Identity> {
  if (!rawKey) throw new KeyFailure('missing_key');
  if (!looksLikeClientKey(rawKey)) throw new KeyFailure('key_unknown');
  let lookup;
  try {
    lookup = await keys.lookup(rawKey);
  } catch {
    throw new KeyFailure('key_store_unavailable');
  }
  if (!lookup) throw new KeyFailure('key_unknown');
  const { record } = lookup;
  if (record.status === 'revoked') throw new KeyFailure('key_revoked');
  if (record.status === 'expired') throw new KeyFailure('key_expired');
  if (!lookup.userActive) throw new KeyFailure('user_deactivated');
  return {
    keyId: record.id,
    keyType: record.type,
    user: record.user,
    team: record.team,
    name: record.name,
    key: record,
    metadata: {},
  };
}

/** The caller of a keyless request on an isolated network (identity mode `network-trusted`). */
export function networkTrustedIdentity(): Identity {
  const key: KeyRecord = {
    id: 'network-trusted',
    type: 'client',
    source: 'network-trusted',
    keyPrefix: '',
    user: null,
    team: 'network-trusted',
    name: null,
    label: null,
    monthlyBudgetUsd: null,
    tenant: null,
    status: 'active',
    createdAt: isoInstant(0),
    createdBy: 'settings',
    expiresAt: null,
    revokedAt: null,
    rotatedAt: null,
  };
  return { keyId: key.id, keyType: 'client', user: null, team: key.team, name: null, key, metadata: {} };
}

/**
 * Attribution keys a caller may not set. `user` and `team` (and aliases) are the key's. The rest are keys the gateway
 * alone sets on optimizer calls: the optimizer scopes by the tenant (cache partitions, stash owners, the regression
 * guard, holdout arms) and takes the others as the gateway's word.
 */
const reservedMetadata = new Set([
  'user',
  'team',
  'userid',
  'user_id',
  'teamid',
  'team_id',
  'tenant',
  'gatewaysessionid',
  'source',
  'billingmode',
  'clientcanretrieve',
  'retrieveevidence',
  'modelcontexttokens',
  'capabilities',
  'cachescope',
]);
const maxMetadataEntries = 32;

/** Parse `x-gw-metadata` (JSON object of attribution strings). Bad JSON is ignored rather than failing inference. */
export function parseMetadataHeader(value: string | undefined): Record<string, string> {
  if (!value || value.length > 8192) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const result: Record<string, string> = {};
  for (const [name, entry] of Object.entries(parsed).slice(0, maxMetadataEntries)) {
    if (reservedMetadata.has(name.toLowerCase())) continue;
    if (typeof entry === 'string' || typeof entry === 'number' || typeof entry === 'boolean')
      result[name.slice(0, 64)] = String(entry).slice(0, 256);
  }
  return result;
}
