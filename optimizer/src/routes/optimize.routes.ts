import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyPluginAsync } from 'fastify';
import {
  optimizeResponseSchema,
  type Decision,
  type OptimizeRequest,
  type OptimizeResponse,
  type OptimizerConfig,
} from '@gw/contracts';
import type { OptimizeCacheFields } from '../cache/cache-service.js';
import type { OptimizeOutcome } from '../health/metrics.js';
import { authoritativeTenant } from '../http/auth.js';
import { callerOwner, callerTenant, ownerKey, withBearerTenant } from '../http/caller-owner.js';
import { optimizeBodySchema } from '../http/caller-metadata.schema.js';
import { hookGateErrors, optimizerErrorResponses } from '../errors.js';
import type { ZodTypeProvider } from '@gw/platform';
import { buildRequestView } from '../format/build-request-view.js';
import { classifyEvidence } from '../pipeline/evidence-class.js';
import { modelOf } from '../format/json-value.js';
import { GuardRequest } from '../guard/guard-request.js';
import type { ToolCallFact } from '../guard/session-signals.js';
import { assignHoldout, holdoutSession, type HoldoutAssignment } from '../holdout/assign-holdout.js';
import { cohortFields, holdoutDecision } from '../holdout/holdout-response.js';
import { isActivated } from '../settings/activation.js';
import { inputPricePerToken } from '../settings/input-prices.js';
import { kindsOffFor } from '../settings/kill-switch.js';
import type { PipelineResult } from './pipeline-port.js';
import type { OptimizerRuntime } from './runtime.js';

const defaultCacheTtlSeconds = 3_600;

/**
 * POST /v1/optimize: cache lookup, holdout arm, kill switches, then the pipeline. Fail-open:
 * a pipeline error answers the original request unchanged (the model path never sees an optimizer failure).
 */
export function optimizeRoutes(runtime: OptimizeDeps & Pick<OptimizerRuntime, 'cacheLint'>): FastifyPluginAsync {
  return async (app) => {
    app.withTypeProvider<ZodTypeProvider>().post(
      '/v1/optimize',
      {
        config: { signed: true, leaseGated: true },
        schema: {
          summary: 'Transform a request before it is forwarded',
          description:
            'Fail-open: any internal failure answers the request unchanged. With audited holdout on and an attributable request (user or team, and a session from gatewaySessionId, sessionId or session), `cohort` names the arm; a control session gets its request untouched with exactly one `audited_holdout` decision, a per-strategy control row withholds only `cohortKind`. The per-tenant regression guard holds back strategies the model keeps undoing: reason `regret_guard` in `suppressedKinds` and one `guard_suppressed` decision per kind held back. `estimatedSavingsUsd` prices tokens at the model’s list input price. Identical input gives byte-identical output.',
          tags: ['hooks'],
          body: optimizeBodySchema,
          response: { 200: optimizeResponseSchema, ...optimizerErrorResponses(hookGateErrors) },
        },
      },
      async (request) => {
        const started = performance.now();
        const tenant = authoritativeTenant(request.caller);
        const { response, outcome } = await optimize(runtime, request.body, tenant, request.rawBody);
        const seconds = (performance.now() - started) / 1000;
        runtime.metrics.optimizeRequests.inc({ outcome });
        runtime.metrics.optimizeDuration.observe({ outcome }, seconds);
        // A served cache hit never reaches the provider, so it busts nothing.
        if (outcome !== 'cache_hit') lintAfterReply(runtime, request.body, tenant);
        return response;
      },
    );
  };
}

/**
 * Cache lint (settings telemetry `cacheLint`) digests the whole prompt, so it runs after the answer is written, off
 * the optimize latency. It reads the client's request as received: the pipeline returns a new body and leaves it be.
 */
function lintAfterReply(
  runtime: Pick<OptimizerRuntime, 'cacheLint' | 'clock' | 'logger'>,
  body: OptimizeRequest,
  tenantOverride: string | undefined,
): void {
  const sessionKey = sessionKeyOf(withBearerTenant(body.metadata, tenantOverride));
  if (sessionKey === undefined) return;
  const now = runtime.clock.now();
  setImmediate(() => {
    try {
      runtime.cacheLint.observe(sessionKey, body.request, now);
    } catch (error) {
      runtime.logger.warn({ errName: error instanceof Error ? error.name : 'unknown' }, 'cache lint failed');
    }
  });
}

/** What one optimize call uses: the pipeline and its pins, the cache, the guard and holdout, telemetry. */
type OptimizeDeps = OptimizeContext['runtime'] & Pick<OptimizerRuntime, 'cache' | 'holdout' | 'settings'>;

interface OptimizeContext {
  runtime: Pick<
    OptimizerRuntime,
    | 'clock'
    | 'guard'
    | 'logger'
    | 'metrics'
    | 'pinKey'
    | 'runPipeline'
    | 'stash'
    | 'strategyTimer'
    | 'telemetry'
    | 'turns'
  >;
  body: OptimizeRequest;
  metadata: OptimizeRequest['metadata'];
  config: OptimizerConfig;
  now: number;
  base: Pick<OptimizeResponse, 'protocolVersion' | 'features' | 'optimizationId'>;
  cacheFields: OptimizeCacheFields;
}

async function optimize(
  runtime: OptimizeDeps,
  body: OptimizeRequest,
  tenantOverride: string | undefined,
  rawBody: Buffer | null,
): Promise<{ response: OptimizeResponse; outcome: OptimizeOutcome }> {
  const now = runtime.clock.now();
  const config = runtime.settings.current();
  const metadata = withBearerTenant(body.metadata, tenantOverride);
  runtime.telemetry.recordCaller(Boolean(metadata?.gatewaySessionId), now);
  const { fields: cacheFields, servedBy } = runtime.cache.forOptimize({
    endpoint: body.endpoint,
    request: body.request,
    metadata,
    capabilities: body.capabilities,
    authoritativeTenant: tenantOverride,
    settings: {
      enabled: config.cache?.enabled ?? true,
      ttlSeconds: config.cache?.ttlSeconds ?? defaultCacheTtlSeconds,
    },
  });
  if (cacheFields.cacheEligible)
    runtime.metrics.cacheLookups.inc({ result: servedBy === null ? 'miss' : servedBy === 'near' ? 'near_hit' : 'hit' });
  const base = {
    protocolVersion: 1 as const,
    features: { persistentTranscriptPolicyV1: true, agentContinuationV1: false },
    optimizationId: optimizationIdOf(rawBody ?? JSON.stringify(body)),
  };
  const context: OptimizeContext = { runtime, body, metadata, config, now, base, cacheFields };
  if (cacheFields.cacheHit) return { response: unchanged(context, []), outcome: 'cache_hit' };
  const holdout = assignHoldout(config.holdout, metadata, now);
  if (holdout) runtime.holdout.record(holdout, now);
  if (holdout?.cohort === 'holdout' && !holdout.cohortKind) {
    // The control arm: the request untouched, exactly one `audited_holdout` decision.
    runtime.telemetry.recordOptimize(body.request, []);
    return { response: unchanged(context, [holdoutDecision(holdout)], cohortFields(holdout)), outcome: 'holdout' };
  }
  return runOptimization(context, holdout);
}

/** A conversation, told apart per tenant and user (else team): session source order of the contract. */
function sessionKeyOf(metadata: OptimizeRequest['metadata']): string | undefined {
  const session = holdoutSession(metadata);
  return session === undefined ? undefined : `${ownerKey(callerOwner(metadata))}\u0000${session}`;
}

/** The conversation a turn belongs to: its session when it names one, else everything of its owner. */
function turnSessionOf(metadata: OptimizeRequest['metadata']): string {
  return sessionKeyOf(metadata) ?? ownerKey(callerOwner(metadata));
}

/** The guard's view of this request: tenant, session and its tool calls, lazily. */
function startGuard(context: OptimizeContext): GuardRequest {
  const { runtime, body, metadata } = context;
  const tenant = callerTenant(metadata);
  const calls = (): ToolCallFact[] =>
    (buildRequestView(body.endpoint, body.request)?.spans ?? []).flatMap((span) =>
      span.toolName === undefined
        ? []
        : [{ messageIndex: span.messageIndex, name: span.toolName, input: span.toolInput }],
    );
  return new GuardRequest(
    runtime.guard,
    {
      tenant,
      sessionKey: sessionKeyOf(metadata),
      requestFingerprint: context.base.optimizationId,
      request: body.request,
      pins: body.pins,
      calls,
    },
    context.now,
  );
}

async function runOptimization(
  context: OptimizeContext,
  holdout: HoldoutAssignment | null,
): Promise<{ response: OptimizeResponse; outcome: OptimizeOutcome }> {
  const { runtime, body, metadata, config } = context;
  const disabled = kindsOffFor(
    config.strategies,
    { endpoint: body.endpoint, model: modelOf(body.request), metadata },
    holdout?.cohortKind,
  );
  const guard = startGuard(context);
  let result: PipelineResult;
  try {
    result = await runtime.runPipeline(
      {
        ...body,
        ...(metadata ? { metadata } : {}),
        disabledKinds: [...disabled].sort(),
        requireReversibleElision: config.requireReversibleElision ?? undefined,
        agentContinuationActive: isActivated(config.rollouts?.agentContinuationV1ActivateAt ?? undefined, context.now),
      },
      {
        stash: runtime.stash.forOwner(callerOwner(metadata)),
        hmacKey: runtime.pinKey,
        clock: runtime.clock,
        turns: runtime.turns.forSession(turnSessionOf(metadata)),
        // Handles are keyed MACs of owner and content, so re-deciding a span mints the same bytes (no cache_guard).
        stableHandles: true,
        guard: guard.allow,
        pricePerToken: inputPricePerToken(modelOf(body.request)),
        // Timings stay 0 unless a timer is injected: identical input, identical bytes.
        ...(runtime.strategyTimer ? { timer: runtime.strategyTimer } : {}),
      },
    );
  } catch (error) {
    runtime.logger.warn({ err: error }, 'optimize pipeline failed; answering the request unchanged');
    return {
      response: unchanged(
        context,
        holdout?.cohort === 'holdout' ? [holdoutDecision(holdout)] : [],
        cohortFields(holdout),
      ),
      outcome: 'error',
    };
  }
  const guardDecisions = guard.settle(result);
  const decisions = [
    ...(holdout?.cohortKind ? [holdoutDecision(holdout)] : []),
    ...result.decisions,
    ...guardDecisions,
  ];
  runtime.telemetry.recordOptimize(body.request, decisions);
  for (const decision of result.decisions)
    if (decision.estimatedTokensSaved > 0)
      runtime.metrics.tokensSaved.inc({ kind: decision.kind }, decision.estimatedTokensSaved);
  const response: OptimizeResponse = {
    ...context.base,
    features: { persistentTranscriptPolicyV1: true, agentContinuationV1: result.agentContinuationV1 === true },
    request: result.request,
    decisions,
    estimatedTokensSaved: result.estimatedTokensSaved,
    ...context.cacheFields,
    ...cohortFields(holdout),
    ...(body.pins ? { pins: result.pins ?? body.pins } : {}),
    suppressedKinds: result.suppressedKinds,
    strategyTimingsMs: result.strategyTimingsMs,
    ...(result.evidenceClass === undefined ? {} : { evidenceClass: result.evidenceClass }),
  };
  return { response, outcome: result.estimatedTokensSaved > 0 ? 'applied' : 'unchanged' };
}

/** The evidence class of a request the pipeline did not run on (cache hit, holdout arm, fail-open). */
function evidenceOf(body: OptimizeRequest): Pick<OptimizeResponse, 'evidenceClass'> {
  const discovery = body.capabilities?.retrievalDiscovery;
  if (discovery === undefined) return {};
  const view = buildRequestView(body.endpoint, body.request);
  return { evidenceClass: view ? classifyEvidence(view.tools, discovery) : 'no_discovery' };
}

/** The original request, answered as is (cache hit, holdout arm, or fail-open); pins come back untouched. */
function unchanged(
  context: OptimizeContext,
  decisions: Decision[],
  extra: Partial<OptimizeResponse> = {},
): OptimizeResponse {
  return {
    ...evidenceOf(context.body),
    ...context.base,
    request: context.body.request,
    decisions,
    estimatedTokensSaved: 0,
    ...context.cacheFields,
    ...extra,
    ...(context.body.pins ? { pins: context.body.pins } : {}),
    suppressedKinds: [],
    strategyTimingsMs: {},
  };
}

/** Derived from the request bytes: the same input yields the same id, so the whole response is reproducible. */
function optimizationIdOf(raw: Buffer | string): string {
  return `opt_${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}`;
}
