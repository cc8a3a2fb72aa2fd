import type { CacheWriteRequest, OptimizeCapabilities, OptimizerMetadata } from '@gw/contracts';
import { optimizerError } from '../errors.js';
import { mintCacheKey, openCacheKey, readCacheKey, type CacheLane } from './cache-key.js';
import { endpointScope } from './endpoint-scope.js';
import { normalizedRequestHash } from './normalize-request.js';
import { cachePartition } from './partition.js';
import { nearDuplicateHash } from './near-duplicate.js';
import type { CacheTier, SemanticCache } from './semantic-cache.js';
import type { ShadowCounters } from './shadow-counters.js';

export interface CacheSettings {
  enabled: boolean;
  ttlSeconds: number;
}

export interface OptimizeCacheFields {
  cacheHit: boolean;
  cachedResponse?: Record<string, unknown>;
  cacheEligible: boolean;
  cacheKey?: string;
  cacheTtlSeconds?: number;
  cacheShadowOnly?: true;
}

export interface OptimizeCacheInput {
  /** The optimize call's endpoint: part of every key, so another endpoint's answer is never served. */
  endpoint: string;
  request: Record<string, unknown>;
  metadata: OptimizerMetadata | undefined;
  capabilities: OptimizeCapabilities | undefined;
  /** Tenant of a per-tenant bearer; overrides metadata. */
  authoritativeTenant: string | undefined;
  settings: CacheSettings;
}

/**
 * The optimize-side and write-side cache rules of the contract (rules 1–4) over one SemanticCache. A lane that
 * cannot serve inline (`canShortCircuit: false`) or asks for several choices gets a shadow key: measured, never served.
 */
export class CacheService {
  constructor(
    private readonly cache: SemanticCache,
    private readonly keySecret: Buffer,
  ) {}

  /** The response's cache fields, and which tier served the hit (null: nothing served). */
  forOptimize(input: OptimizeCacheInput): { fields: OptimizeCacheFields; servedBy: CacheTier | null } {
    const partition = input.settings.enabled ? cachePartition(input.metadata, input.authoritativeTenant) : null;
    if (!partition) return { fields: { cacheHit: false, cacheEligible: false }, servedBy: null };
    const lane: CacheLane = shadowLane(input) ? 's' : 'l';
    const scope = endpointScope(input.endpoint);
    const requestHash = normalizedRequestHash(scope, input.request);
    const cacheKey = mintCacheKey(this.keySecret, partition, { lane, endpointScope: scope, requestHash });
    const cached = this.cache.lookup(
      partition,
      { requestHash, nearHash: () => nearDuplicateHash(scope, input.request) },
      lane === 'l',
    );
    const fields: OptimizeCacheFields = {
      cacheHit: cached !== null,
      ...(cached !== null ? { cachedResponse: cached.response } : {}),
      cacheEligible: true,
      cacheKey,
      cacheTtlSeconds: input.settings.ttlSeconds,
      ...(lane === 's' ? { cacheShadowOnly: true as const } : {}),
    };
    return { fields, servedBy: cached?.tier ?? null };
  }

  /** The shadow tier's counters (flushed to the shared store by the app's timer). */
  get shadow(): ShadowCounters {
    return this.cache.counters;
  }

  /**
   * `true` when stored; `false` when there is no partition or the key is not this caller's (another partition,
   * lane or endpoint, or no key this service mints). The entry always lands under the key's endpoint.
   */
  write(body: CacheWriteRequest, authoritativeTenant: string | undefined): boolean {
    const partition = cachePartition(body.metadata, authoritativeTenant);
    if (authoritativeTenant !== undefined) {
      // Per-tenant bearer: never trust the key's partition; re-derive under the authoritative tenant (rule 3), for
      // the endpoint and lane the key carries. A key that carries none answers for no endpoint: not stored.
      if (!body.request) throw optimizerError('cache_request_required');
      const claimed = readCacheKey(body.cacheKey);
      if (!partition || !claimed) return false;
      const scope = claimed.endpointScope;
      const shadow = body.shadowOnly === true || claimed.lane === 's';
      this.cache.store(
        partition,
        normalizedRequestHash(scope, body.request),
        body.response,
        body.ttlSeconds,
        shadow,
        nearDuplicateHash(scope, body.request),
      );
      return true;
    }
    if (!partition) return false;
    const parts = openCacheKey(this.keySecret, partition, body.cacheKey);
    if (!parts) return false;
    this.cache.store(
      partition,
      parts.requestHash,
      body.response,
      body.ttlSeconds,
      parts.lane === 's' || body.shadowOnly === true,
    );
    return true;
  }
}

function shadowLane(input: OptimizeCacheInput): boolean {
  if (input.capabilities?.canShortCircuit === false) return true;
  const choices = input.request.n;
  return typeof choices === 'number' && choices > 1;
}
