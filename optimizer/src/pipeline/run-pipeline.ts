import { applyTextRewrites } from '../format/apply-text-rewrites.js';
import { buildRequestView } from '../format/build-request-view.js';
import { isRecord, type JsonObject } from '../format/json-value.js';
import type { RequestView } from '../format/request-view.js';
import { acquireHandles } from './acquire-handles.js';
import { attributeSavings, buildDecisions } from './build-decisions.js';
import { resolveCacheMode } from './cache-mode.js';
import { decideSpan, findDuplicates, freshReversiblePolicy, settlePolicy, type DecidePolicy } from './decide-spans.js';
import { fitWindow } from './fit-window.js';
import { resolveLane } from './lanes.js';
import { readPins, spanHash, type IncomingPins, type SpanPin, type ThrashGuardPin, type WatermarkPin } from './pins.js';
import { nextWatermark, rememberTurn, resolveFrontier, type Frontier } from './prefix-frontier.js';
import { replayPins, type ReplayOutcome } from './replay-pins.js';
import { RunContext } from './run-context.js';
import { SpanState } from './span-state.js';
import { updateThrashGuard } from './thrash-guard.js';
import {
  freshTrimLane,
  type PipelineDeps,
  type PipelineInput,
  type PipelineResult,
  type SpanRewrite,
  type SuppressedKind,
} from './types.js';
import { strategyKinds } from '../strategies/types.js';

const noReplay: ReplayOutcome = {
  replayed: 0,
  discarded: 0,
  firstDiscardIndex: undefined,
  lastReplayedIndex: undefined,
};

function unchanged(input: PipelineInput, format: string | null): PipelineResult {
  // Not a request this optimizer can read: nothing in it can be retrieved, whatever the gateway saw.
  return {
    request: input.request,
    decisions: [],
    estimatedTokensSaved: 0,
    suppressedKinds: [],
    strategyTimingsMs: {},
    ...(Array.isArray(input.pins) ? { pins: input.pins.filter(isRecord) } : {}),
    failedKinds: [],
    agentContinuationV1: false,
    census: { format, toolOutputs: 0, rewrittenOutputs: 0 },
    rewrites: [],
    ...(input.capabilities?.retrievalDiscovery === undefined ? {} : { evidenceClass: 'no_discovery' as const }),
  };
}

function rewritesOf(rewritten: readonly SpanState[]): SpanRewrite[] {
  return rewritten.map((state) => ({
    key: state.span.key,
    messageIndex: state.span.messageIndex,
    toolName: state.span.toolName,
    toolInput: state.span.toolInput,
    handle: state.handle,
    steps: state.steps.map((step) => ({
      kind: step.kind,
      replayed: step.replayed,
      handle: typeof (step.recipe as { handle?: unknown }).handle === 'string',
    })),
    fresh: !state.span.settled,
  }));
}

function newPins(state: SpanState, context: RunContext): SpanPin[] {
  const pins: SpanPin[] = [];
  for (const step of state.steps) {
    if (step.replayed) continue;
    const location = state.span;
    pins.push({
      v: 1,
      kind: step.kind,
      messageIndex: location.messageIndex,
      ...(location.partIndex === undefined ? {} : { partIndex: location.partIndex }),
      ...(location.subIndex === undefined ? {} : { subIndex: location.subIndex }),
      spanHash: spanHash(context.deps.hmacKey, step.kind, location, location.text),
      recipe: step.recipe,
      saved: step.saved,
    });
  }
  return pins;
}

/** The full replacement list: span chains in request order, then the two session pins. */
function outgoingPins(
  states: readonly SpanState[],
  context: RunContext,
  pins: IncomingPins,
  watermark: WatermarkPin,
  guard: ThrashGuardPin,
): JsonObject[] {
  const out: unknown[] = [];
  for (const state of states) out.push(...state.keptRaw, ...newPins(state, context));
  out.push(watermark, guard, ...pins.foreign);
  return out.filter(isRecord);
}

function suppressions(context: RunContext, freshHeld: boolean): SuppressedKind[] {
  const kinds: SuppressedKind[] = strategyKinds.flatMap((kind) => {
    const reason = context.suppressed.get(kind);
    return reason ? [{ kind, reason }] : [];
  });
  return freshHeld ? [...kinds, { kind: freshTrimLane, reason: 'regret_guard' }] : kinds;
}

function reportHeld(context: RunContext, frontier: Frontier, states: readonly SpanState[]): void {
  const frozen = states.some(
    (state) => !state.pinned && state.span.settled && state.span.messageIndex < frontier.index,
  );
  if (!frozen) return;
  for (const kind of frontier.held)
    if (!context.suppressed.has(kind)) context.suppressed.set(kind, 'prefix_stabilizer');
}

/**
 * The fresh turn is the model's, byte for byte, except on the connect hook's single-output request and, on a
 * qualified lane of a pinning session, for a reversible compression that later turns replay byte for byte
 * (docs/adr/0021-fresh-reversible-trimming.md).
 */
function freshTrimmable(context: RunContext): boolean {
  return context.lane.freshEligible || (context.lane.freshReversible && context.pinning);
}

function isDecidable(state: SpanState, context: RunContext, frontier: Frontier): boolean {
  if (state.pinned) return false;
  if (!state.span.settled && !freshTrimmable(context)) return false;
  return !state.span.settled || state.span.messageIndex >= frontier.index;
}

function policyFor(state: SpanState, context: RunContext, settle: DecidePolicy): DecidePolicy {
  return state.span.settled || context.lane.freshEligible ? settle : freshReversiblePolicy;
}

function refreshReplayedHandles(states: readonly SpanState[], deps: PipelineDeps): void {
  const stash = deps.stash;
  if (!stash.refresh) return;
  for (const state of states) {
    const handle = state.handle;
    if (handle === null || !state.steps.some((step) => step.replayed)) continue;
    // Best effort and off the request path: the replayed bytes do not depend on it, so it runs after
    // this turn's answer is written (a microtask would run before it, on the same thread).
    setImmediate(() => {
      Promise.resolve(stash.refresh?.(handle, state.span.text)).catch(() => undefined);
    });
  }
}

function createContext(
  input: PipelineInput,
  deps: PipelineDeps,
  view: RequestView,
): { context: RunContext; freshHeld: boolean } {
  const capabilities = input.capabilities ?? {};
  const requireReversible = input.requireReversibleElision ?? input.settings?.requireReversibleElision;
  const resolved = resolveLane(
    view,
    capabilities,
    input.metadata ?? {},
    requireReversible,
    input.agentContinuationActive === true,
  );
  // The regression guard can hold fresh trimming back for a tenant while settled-history strategies keep running.
  const freshHeld = resolved.freshReversible && deps.guard !== undefined && !deps.guard(freshTrimLane);
  const lane = freshHeld ? { ...resolved, freshReversible: false } : resolved;
  return { context: new RunContext(input, deps, view, lane, resolveCacheMode(capabilities, view)), freshHeld };
}

/**
 * The optimizer's pure core: replay pins, fresh-decide the newly settled suffix, stash originals, fit the window,
 * and return the transformed request with its decisions. Deterministic: the same input, stash answers and age of
 * the previous turn (`deps.turns`) give byte-identical output; no clock reading reaches the bytes,
 * except `strategyTimingsMs`, and only with a timer.
 */
export async function runPipeline(input: PipelineInput, deps: PipelineDeps): Promise<PipelineResult> {
  const request: JsonObject = input.request;
  const view = buildRequestView(input.endpoint, request);
  if (!view) return unchanged(input, null);
  const { context, freshHeld } = createContext(input, deps, view);
  const states = view.spans.map((span) => new SpanState(span));
  const byKey = new Map(states.map((state) => [state.span.key, state]));
  const pinning = Array.isArray(input.pins) && context.lane.replay !== 'none';
  const pins = pinning ? readPins(input.pins ?? []) : null;
  context.pinning = pins !== null;
  const replay = pins ? replayPins(pins.spans, byKey, context) : noReplay;
  const guard = pins ? updateThrashGuard(pins.guard, replay.replayed, replay.discarded) : undefined;
  context.setFlags({
    thrash: guard?.suppress ?? false,
    cacheGuard: !pins && context.cacheMode === 'protect' && deps.stableHandles !== true,
  });
  const frontier = resolveFrontier(context, pins, replay);
  const duplicates = findDuplicates(view.spans);
  const settle = settlePolicy(context, frontier.cold);
  for (const state of states)
    if (isDecidable(state, context, frontier))
      decideSpan(state, context, duplicates, policyFor(state, context, settle));
  // After this turn's own suppressions, which name the live reason.
  reportHeld(context, frontier, states);
  await acquireHandles(states, context, duplicates);
  await fitWindow(states, context);
  refreshReplayedHandles(states, deps);
  for (const state of states) attributeSavings(state);
  const decisions = buildDecisions(states, deps.pricePerToken ?? 0);
  const rewritten = states.filter((state) => state.rewritten);
  const result: PipelineResult = {
    request: applyTextRewrites(
      request,
      rewritten.map((state) => ({ path: state.span.path, text: state.text })),
    ),
    decisions,
    estimatedTokensSaved: decisions.reduce((sum, decision) => sum + decision.estimatedTokensSaved, 0),
    suppressedKinds: suppressions(context, freshHeld),
    strategyTimingsMs: context.timingsRecord(),
    failedKinds: strategyKinds.filter((kind) => context.failed.has(kind)),
    agentContinuationV1: context.lane.continuation,
    census: { format: view.format, toolOutputs: view.spans.length, rewrittenOutputs: rewritten.length },
    rewrites: rewritesOf(rewritten),
    ...(context.lane.evidence === undefined ? {} : { evidenceClass: context.lane.evidence }),
  };
  if (!Array.isArray(input.pins)) return result;
  if (!pins || !guard) return { ...result, pins: input.pins.filter(isRecord) };
  const watermark = nextWatermark(context, frontier.held);
  rememberTurn(context, watermark);
  return { ...result, pins: outgoingPins(states, context, pins, watermark, guard.next) };
}
