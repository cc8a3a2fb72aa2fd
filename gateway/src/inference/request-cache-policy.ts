import type { FastifyRequest } from 'fastify';
import { firstHeader } from '../shared/first-header.js';
import { cacheSettingsOfConfig, cacheSettingsOfConfigHeader, type CacheSettings } from '../routing/cache-settings.js';
import { firstTarget, selectionFor, type ResolvedRoute } from '../routing/resolve-route.js';
import { decideCachePolicy, type CachePolicy } from './cache-policy.js';
import type { Optimization } from '../optimization/hook/pre-call-hook.js';
import type { InferenceDeps } from './inference-deps.js';
import type { InferenceCall } from './inference-call.js';

/** The response cache rule of one organisation-key call, from its headers, its route and the stored routing. */
export function requestCachePolicy(
  deps: Pick<InferenceDeps, 'providers' | 'routing'>,
  call: InferenceCall,
  request: FastifyRequest,
  route: ResolvedRoute,
): CachePolicy {
  const producer = selectionFor(firstTarget(route.plan), route, deps.providers);
  const identity = request.gw.identity;
  return decideCachePolicy({
    endpoint: call.endpoint,
    body: call.body,
    cacheControl: firstHeader(request, 'cache-control'),
    modeHeader: firstHeader(request, 'x-gw-cache-mode'),
    requestSettings: cacheSettingsOfConfigHeader(firstHeader(request, 'x-gw-config')),
    storedSettings: storedSettingsOf(deps),
    plan: route.plan,
    producer: { provider: producer.provider.slug, model: producer.model, family: producer.provider.family },
    billingLane: call.seat ? 'subscription' : 'api_key',
    caller: { user: identity?.user ?? null, team: identity?.team ?? null, keyId: identity?.keyId ?? null },
  });
}

/**
 * Without an optimizer there is no response cache and no policy to decide, but a request's `x-gw-config` keeps the
 * same contract: a malformed `cache` block is refused (400 `invalid_config`) whether or not an optimizer runs.
 */
export function checkRequestCacheSettings(request: FastifyRequest): undefined {
  cacheSettingsOfConfigHeader(firstHeader(request, 'x-gw-config'));
  return undefined;
}

/** The stored routing's cache settings, with the `cache` block of the stored default config under them. */
function storedSettingsOf(deps: Pick<InferenceDeps, 'routing'>): CacheSettings | null {
  const stored = deps.routing.documents.default;
  const fromConfig = cacheBlockOf(stored.config);
  if (!fromConfig) return stored.cache ?? null;
  return { ...fromConfig, ...(stored.cache ?? {}) };
}

/**
 * An entry holds only its producer's answer: when a fallback or another balanced target answered, nothing is written
 * back, so a later hit never names a provider that did not produce it.
 */
export function writableBy(
  optimization: Optimization | undefined,
  policy: CachePolicy | undefined,
  answered: { provider: { slug: string }; model: string },
): Optimization | undefined {
  if (
    !optimization ||
    !policy ||
    (answered.provider.slug === policy.producer.provider && answered.model === policy.producer.model)
  )
    return optimization;
  return { ...optimization, cache: { ...optimization.cache, eligible: false } };
}

/** Validated when stored; a document from before that check is ignored rather than failing every call. */
function cacheBlockOf(config: unknown): CacheSettings | null {
  try {
    return cacheSettingsOfConfig(config);
  } catch {
    return null;
  }
}
