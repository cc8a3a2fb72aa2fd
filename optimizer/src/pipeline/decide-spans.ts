import type { ToolOutputSpan } from '../format/request-view.js';
import { spanStrategies } from '../strategies/registry.js';
import {
  handlePlaceholder,
  type Planned,
  type Recipe,
  type SpanStrategy,
  type StrategyKind,
} from '../strategies/types.js';
import { countTokens } from '../tokens/count-tokens.js';
import type { RunContext } from './run-context.js';
import { planMemo } from './plan-memo.js';
import type { AppliedStep, SpanState } from './span-state.js';

/**
 * With a warm provider cache, rewriting a newly settled output writes it to the cache again (1.25x) instead of
 * reading it (0.1x), and saves 0.1x of what it removed on every later turn. A rewrite keeping a
 * share r of the tokens pays for itself over n more turns when r * (1.25 + 0.1 * (n - 1)) < 0.1 * n.
 */
export function minSavedShareWhenCached(expectedTurns: number): number {
  // Agent sessions seldom end within a few turns of starting; below four the estimate is noise.
  const turns = Math.max(4, expectedTurns);
  const keepable = (0.1 * turns) / (1.15 + 0.1 * turns);
  return Math.min(0.85, Math.max(0.25, 1 - keepable));
}

/**
 * Without pins a span is decided again on every turn, so its verdict must not drift as the session grows: a fixed
 * share (pays back within about three turns) keeps an earlier "no" a "no".
 */
export const statelessMinSavedShare = 0.75;

/**
 * The policy for newly settled spans: any saving when nothing upstream caches or the cache has expired since the last
 * turn (everything is written again anyway), else a share that pays back over the turns the session is likely to
 * have left (pinned) or a fixed share (without pins a verdict is re-made every turn and must not drift).
 */
export function settlePolicy(context: RunContext, cacheCold: boolean): DecidePolicy {
  if (context.cacheMode === 'none' || cacheCold) return { scope: 'all', minSavedShare: 0 };
  return {
    scope: 'all',
    minSavedShare: context.pinning ? minSavedShareWhenCached(context.view.modelTurns) : statelessMinSavedShare,
  };
}

/** Spans at least this long are worth a duplicate check (shorter ones are acknowledgements). */
const dedupeMinChars = 200;

/** The first earlier span with the same original bytes, for every span that has one. */
export function findDuplicates(spans: readonly ToolOutputSpan[]): Map<string, ToolOutputSpan> {
  const firstByText = new Map<string, ToolOutputSpan>();
  const duplicates = new Map<string, ToolOutputSpan>();
  for (const span of spans) {
    if (span.text.length < dedupeMinChars) continue;
    const earlier = firstByText.get(span.text);
    if (earlier) duplicates.set(span.key, earlier);
    else firstByText.set(span.text, span);
  }
  return duplicates;
}

interface Chain {
  readonly steps: AppliedStep[];
  readonly text: string;
}

/**
 * Which strategies a decision may run: every lossless one (cleanups, minification, a reference to an earlier
 * identical output), or all of them.
 */
export type DecideScope = 'lossless' | 'all';

/** Pure functions of the text and the elision mode (no neighbour): their plans can be memoized across requests. */
const cleanupKinds: ReadonlySet<StrategyKind> = new Set(['ansi_strip', 'whitespace_trim']);

function inScope(strategy: SpanStrategy<Recipe>, scope: DecideScope): boolean {
  return scope === 'all' || !strategy.degradable;
}

/**
 * Strategies that read an output's shape (a file's declarations, a listing's project paths, a test run's failures)
 * and keep what an agent acts on. They go first; when what they keep is too much to be worth a rewrite, the output
 * is decided again without them, so generic elision is never worse off for their being tried.
 */
const shapeKinds: ReadonlySet<StrategyKind> = new Set(['file_outline', 'listing_group', 'test_log_failures']);

/** Runs every applicable strategy of the scope in order on the span's original bytes. */
export function planChain(
  state: SpanState,
  context: RunContext,
  duplicates: ReadonlyMap<string, ToolOutputSpan>,
  scope: DecideScope,
  withShapes = true,
): Chain {
  const span = state.span;
  // A tool output that happens to contain the placeholder could not have it substituted safely.
  const placeholderFree = !span.text.includes(handlePlaceholder);
  let text = span.text;
  const steps: AppliedStep[] = [];
  // After a shape strategy no other one drops content: the output keeps one map and one hint naming its handle.
  let shaped = false;
  for (const strategy of spanStrategies) {
    if (shaped && strategy.degradable) continue;
    if (text.length < strategy.minChars || !inScope(strategy, scope) || (strategy.degradable && !placeholderFree))
      continue;
    if (!withShapes && shapeKinds.has(strategy.kind)) continue;
    // The fresh turn's output is the model's to read: never a reference to an earlier copy in its place.
    if (strategy.kind === 'dedupe_tool_result' && !span.settled && !context.lane.freshEligible) continue;
    const policy = context.policy(strategy.kind);
    if (!policy.run) {
      if (policy.reason) context.suppress(strategy.kind, policy.reason);
      continue;
    }
    const current = text;
    const planContext = { span, view: context.view, mode: policy.mode, earlierIdentical: duplicates.get(span.key) };
    const plan = () => strategy.plan(current, planContext);
    const planned: Planned<Recipe> | null | undefined = context.attempt(strategy.kind, () =>
      cleanupKinds.has(strategy.kind) ? planMemo.plan(strategy, policy.mode, current, plan) : plan(),
    );
    if (!planned) continue;
    steps.push({
      kind: strategy.kind,
      recipe: planned.recipe,
      replayed: false,
      raw: undefined,
      charsRemoved: Math.max(0, current.length - planned.text.length),
      saved: 0,
    });
    text = planned.text;
    shaped ||= shapeKinds.has(strategy.kind);
  }
  return { steps, text };
}

/** How a span may be decided: which strategies may run, and what a rewrite must save to be worth a cache write. */
export interface DecidePolicy {
  readonly scope: DecideScope;
  /** Share of the original's tokens a rewrite must save. */
  readonly minSavedShare: number;
  /** Keep a rewrite only when its original is stashed behind a handle (the fresh turn's outputs). */
  readonly requireHandle?: boolean;
  /** A shape strategy's rewrite is kept when it is worth one, even where plain elision would cut deeper. */
  readonly preferShape?: boolean;
}

/**
 * A bulky output of the fresh turn on a qualified lane (docs/adr/0021-fresh-reversible-trimming.md): it has not been
 * written to the provider's cache yet, so any real cut saves a first write; but the model has not read it either, so
 * the original must stay one `gw_retrieve` away (a handle, never an in-place trim) and the cut must be deep enough
 * to be worth a possible retrieval round trip.
 */
export const freshReversiblePolicy: DecidePolicy = {
  scope: 'all',
  minSavedShare: 0.5,
  requireHandle: true,
  preferShape: true,
};

/** A newly settled output whose stash write failed: no content dropped, a reference still welcome. */
export const losslessOnly: DecidePolicy = { scope: 'lossless', minSavedShare: 0 };

function tokensOf(text: string): number {
  return countTokens(text.split(handlePlaceholder).join('ctx_000000000000000000000000'));
}

/**
 * Fresh decision on one newly settled span; false when nothing worthwhile applied. A rewrite replaces text the
 * provider has already cached as it was first sent, so it is kept only when it saves the policy's share of the
 * original's tokens, and it is pinned so every later turn replays the same bytes.
 */
export function decideSpan(
  state: SpanState,
  context: RunContext,
  duplicates: ReadonlyMap<string, ToolOutputSpan>,
  policy: DecidePolicy,
): boolean {
  const chain = planChain(state, context, duplicates, policy.scope);
  const shaped = chain.steps.some((step) => shapeKinds.has(step.kind));
  if (!shaped) return accept(state, chain, policy);
  // The model has not read a fresh output yet: it gets the shape (failures, declarations, project paths) whenever
  // that is worth a rewrite. A settled one it has read in full: the deeper cut wins.
  if (policy.preferShape === true && accept(state, chain, policy)) return true;
  const plain = planChain(state, context, duplicates, policy.scope, false);
  const better = policy.preferShape === true || tokensOf(plain.text) <= tokensOf(chain.text) ? plain : chain;
  return accept(state, better, policy);
}

function accept(state: SpanState, chain: Chain, policy: DecidePolicy): boolean {
  if (chain.steps.length === 0) return false;
  if (policy.requireHandle === true && !chain.text.includes(handlePlaceholder)) return false;
  const before = state.tokensBefore ?? countTokens(state.span.text);
  state.tokensBefore = before;
  const saved = before - tokensOf(chain.text);
  if (saved <= 0 || saved < before * policy.minSavedShare) return false;
  state.steps = chain.steps;
  state.text = chain.text;
  return true;
}

export function needsHandle(state: SpanState): boolean {
  return state.steps.some(
    (step) => !step.replayed && (step.recipe as { handle?: unknown }).handle === handlePlaceholder,
  );
}
