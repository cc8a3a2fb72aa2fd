import { hash } from 'node:crypto';
import type { Logger } from '@gw/platform';
import type { EvidenceClass, OptimizeCapabilities, OptimizeResponse, RetrievalDiscovery } from '@gw/contracts';
import { lookupModel, type ModelFacts } from '../../providers/pricing/known-models.js';
import type { ProviderFamily } from '../../providers/provider-types.js';
import type { OptimizerClient } from './optimizer-client.js';
import { OptimizerCallError } from './optimizer-client.js';
import { answersEndpoint, preservesRequest } from './client-shapes.js';
import type { SessionPins } from './session-pins.js';
import type { CircuitBreaker } from './circuit-breaker.js';

export type OptimizationStatus = 'applied' | 'skipped' | 'disabled' | 'timeout' | 'error';

/** What the pre-call hook decided, for forwarding and for the spend row. */
export interface Optimization {
  status: OptimizationStatus;
  reason: string | null;
  latencyMs: number | null;
  /** The body to forward: the optimizer's when applied, else the client's unchanged. */
  body: Record<string, unknown>;
  /** True when `body` is not the client's (raw bytes can no longer be forwarded). */
  changed: boolean;
  tokensSaved: number;
  decisions: Array<{ kind: string; estimatedTokensSaved: number }>;
  optimizationId: string | null;
  /** `scope`: the partition the key was minted for; a write-back must name the same one. */
  cache: {
    hit: Record<string, unknown> | null;
    key: string | null;
    eligible: boolean;
    ttlSeconds: number | null;
    shadowOnly: boolean;
    scope: string | null;
  };
  cohort: { cohort: string; cohortKind: string | null } | null;
  /** The optimizer's verdict on retrieval for this request (recorded on the spend row); null when it gave none. */
  evidenceClass: EvidenceClass | null;
}

export interface HookInput {
  endpoint: string;
  body: Record<string, unknown>;
  model: string;
  family: ProviderFamily;
  user: string | null;
  team: string | null;
  gatewaySessionId: string | null;
  clientCanRetrieve: boolean;
  billingMode: 'api_key' | 'subscription';
  /** Extra attribution the caller sent (`x-gw-metadata`), never user or team. */
  metadata: Record<string, string>;
  canShortCircuit: boolean;
  /**
   * The gateway's response cache rule for this call: the partition, whether a hit may be served (a refresh looks the
   * entry up only to replace it), whether anything may be written, and the entry's lifetime cap.
   */
  cache: { scope: string; serve: boolean; store: boolean; maxAgeSeconds: number | null };
  modelFacts?: Readonly<Record<string, ModelFacts>>;
  /** What the gateway saw of the caller's retrieval beyond the body (`retrieval-discovery.ts`); sent as a capability. */
  retrievalDiscovery?: RetrievalDiscovery;
  /**
   * The gateway verified a Responses continuation transcript (`agent-continuation.ts`) and asks for the handle-free
   * continuation path. Only an answer asserting `features.agentContinuationV1` is used; any other fails open.
   */
  agentContinuation?: boolean;
}

export interface HookDeps {
  optimizer: OptimizerClient | null;
  pins: SessionPins;
  now: () => number;
  logger: Logger;
  /** Skips the optimizer while it keeps failing; absent = always call it. */
  breaker?: CircuitBreaker | null;
}

/** Failures that say the optimizer is unwell (slow, down, overloaded, broken), not that it refused this request. */
function countsAgainstOptimizer(error: OptimizerCallError): boolean {
  return error.reason !== 'status' || error.status === null || error.status >= 500 || error.status === 429;
}

export const untouched = (
  body: Record<string, unknown>,
  status: OptimizationStatus,
  reason: string | null,
  latencyMs: number | null,
): Optimization => ({
  status,
  reason,
  latencyMs,
  body,
  changed: false,
  tokensSaved: 0,
  decisions: [],
  optimizationId: null,
  cache: { hit: null, key: null, eligible: false, ttlSeconds: null, shadowOnly: false, scope: null },
  cohort: null,
  evidenceClass: null,
});

/** The outcome of every call on a gateway without an optimizer: forwarded as sent. */
export const optimizerNotConfigured = (body: Record<string, unknown>): Optimization =>
  untouched(body, 'disabled', 'optimizer_not_configured', null);

/** A stable gateway session id derived from the sticky conversation key; never content. */
export function gatewaySessionIdOf(conversationKey: string | null): string | null {
  return conversationKey ? `gws_${hash('sha256', conversationKey, 'base64url').slice(0, 24)}` : null;
}

function capabilitiesFor(input: HookInput): OptimizeCapabilities {
  // OpenAI-family hosts cache prompt prefixes implicitly, whatever the model; Anthropic caches only where asked.
  return {
    canShortCircuit: input.canShortCircuit,
    retrieveEvidence: input.clientCanRetrieve,
    providerPromptCache: input.family === 'openai',
    providerPromptCacheKnown: true,
    ...(input.retrievalDiscovery ? { retrievalDiscovery: input.retrievalDiscovery } : {}),
    ...(input.agentContinuation ? { agentContinuation: true } : {}),
  };
}

function metadataFor(input: HookInput, contextTokens: number | undefined) {
  // The client's `x-gw-metadata` never names the cache partition: the gateway's scope is written last.
  return {
    ...input.metadata,
    cacheScope: input.cache.scope,
    ...(input.user ? { user: input.user } : {}),
    ...(input.team ? { team: input.team } : {}),
    ...(input.gatewaySessionId ? { gatewaySessionId: input.gatewaySessionId } : {}),
    ...(contextTokens ? { modelContextTokens: contextTokens } : {}),
    clientCanRetrieve: input.clientCanRetrieve,
    billingMode: input.billingMode,
  };
}

/** The reason a continuation request failed open because the optimizer did not use the continuation path. */
export const continuationUnavailable = 'continuation_unavailable';

const nonNegative = (value: unknown) => Math.max(0, Math.round(Number(value ?? 0)));

/**
 * Turn a protocol-valid optimize response into what the gateway forwards and records. A cached answer is served only
 * to a call that can be short-circuited (never a stream) and only in the client's wire format.
 */
function interpret(response: OptimizeResponse, input: HookInput, latencyMs: number): Optimization {
  const body = input.body;
  const decisions = response.decisions.map((decision) => ({
    kind: String(decision.kind),
    estimatedTokensSaved: nonNegative(decision.estimatedTokensSaved),
  }));
  const tokensSaved = nonNegative(response.estimatedTokensSaved);
  const cached = response.cacheHit === true ? response.cachedResponse : null;
  const hit =
    cached && input.canShortCircuit && input.cache.serve && answersEndpoint(cached, input.endpoint) ? cached : null;
  const ttlSeconds = typeof response.cacheTtlSeconds === 'number' ? response.cacheTtlSeconds : null;
  const changed = tokensSaved > 0;
  return {
    status: hit || changed ? 'applied' : 'skipped',
    reason: hit ? 'cache_hit' : changed ? null : 'no_savings',
    latencyMs,
    body: changed ? response.request : body,
    changed,
    tokensSaved: hit ? 0 : tokensSaved,
    decisions,
    optimizationId: typeof response.optimizationId === 'string' ? response.optimizationId : null,
    cache: {
      hit,
      key: typeof response.cacheKey === 'string' ? response.cacheKey : null,
      eligible: response.cacheEligible === true && input.cache.store,
      ttlSeconds:
        input.cache.maxAgeSeconds === null
          ? ttlSeconds
          : Math.min(ttlSeconds ?? input.cache.maxAgeSeconds, input.cache.maxAgeSeconds),
      shadowOnly: response.cacheShadowOnly === true,
      scope: input.cache.scope,
    },
    cohort:
      typeof response.cohort === 'string'
        ? { cohort: response.cohort, cohortKind: typeof response.cohortKind === 'string' ? response.cohortKind : null }
        : null,
    evidenceClass: response.evidenceClass ?? null,
  };
}

/**
 * The pre-call hook: fail-open with a hard timeout, behind a circuit breaker that skips an
 * optimizer that keeps failing (`circuit_open`). An absent, slow, refusing (401,
 * 402, 403) or malformed optimizer leaves the request exactly as the client sent it, and says why.
 */
export async function runPreCallHook(deps: HookDeps, input: HookInput): Promise<Optimization> {
  if (!deps.optimizer) return optimizerNotConfigured(input.body);
  const started = deps.now();
  const pins = input.gatewaySessionId ? await deps.pins.load(input.gatewaySessionId) : undefined;
  // Asked only now, right before the call, so every call let through reports its outcome below.
  const breaker = deps.breaker ?? null;
  if (breaker && !breaker.tryAcquire()) return untouched(input.body, 'error', 'circuit_open', null);
  let response: OptimizeResponse;
  try {
    response = await deps.optimizer.optimize({
      endpoint: input.endpoint,
      request: input.body,
      metadata: metadataFor(input, lookupModel(input.model, input.modelFacts)?.contextTokens),
      capabilities: capabilitiesFor(input),
      ...(pins ? { pins } : {}),
    });
  } catch (error) {
    const latencyMs = deps.now() - started;
    if (error instanceof OptimizerCallError) {
      if (countsAgainstOptimizer(error)) breaker?.failed();
      else breaker?.succeeded();
      return untouched(
        input.body,
        error.reason === 'timeout' ? 'timeout' : 'error',
        error.reason === 'status' ? `http_${error.status}` : error.reason,
        latencyMs,
      );
    }
    breaker?.failed();
    deps.logger.warn({ err: error }, 'optimizer hook failed');
    return untouched(input.body, 'error', 'exception', latencyMs);
  }
  breaker?.succeeded();
  // A continuation request the optimizer did not serve on the continuation path fails open: nothing of its answer is
  // forwarded or stored, so the session's bytes stay as the client sent them (the caller then holds the session).
  if (input.agentContinuation && response.features.agentContinuationV1 !== true)
    return {
      ...untouched(input.body, 'skipped', continuationUnavailable, deps.now() - started),
      evidenceClass: response.evidenceClass ?? null,
    };
  // Only a list the optimizer answered for the pins it was sent replaces the stored one.
  if (input.gatewaySessionId && pins && response.pins) await deps.pins.replace(input.gatewaySessionId, response.pins);
  const latencyMs = deps.now() - started;
  if (nonNegative(response.estimatedTokensSaved) > 0 && !preservesRequest(input.body, response.request)) {
    deps.logger.warn(
      { endpoint: input.endpoint },
      'optimizer rewrite changed what the request asks for; forwarding the client body',
    );
    return untouched(input.body, 'error', 'malformed_request', latencyMs);
  }
  return interpret(response, input, latencyMs);
}

/** `savingsUsd`: tokens saved priced at the model's input price. */
export function savingsUsd(
  tokensSaved: number,
  model: string,
  modelFacts?: Readonly<Record<string, ModelFacts>>,
): number {
  const facts = lookupModel(model, modelFacts);
  return facts ? Math.round(tokensSaved * facts.inputPerMTok * 10_000) / 10_000_000_000 : 0;
}
