import type { ToolOutputSpan } from '../format/request-view.js';
import { spanStrategies } from '../strategies/registry.js';
import { handlePlaceholder, type Planned, type Recipe } from '../strategies/types.js';
import { countTokens } from '../tokens/count-tokens.js';
import type { RunContext } from './run-context.js';
import type { AppliedStep, SpanState } from './span-state.js';

/**
 * With a warm provider cache, rewriting a newly settled output writes it to the cache again (1.25x) instead of
 * reading it (0.1x), and saves 0.1x of what it removed on every later turn (issue 6 item 11). A rewrite keeping a
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

/** Runs every applicable strategy in order on the span's original bytes. */
export function planChain(state: SpanState, context: RunContext, duplicates: ReadonlyMap<string, ToolOutputSpan>, allowDegradable: boolean): Chain {
  const span = state.span;
  // A tool output that happens to contain the placeholder could not have it substituted safely.
  const degradableOk = allowDegradable && !span.text.includes(handlePlaceholder);
  let text = span.text;
  const steps: AppliedStep[] = [];
  for (const strategy of spanStrategies) {
    if (text.length < strategy.minChars || (strategy.degradable && !degradableOk)) continue;
    const policy = context.policy(strategy.kind);
    if (!policy.run) {
      if (policy.reason) context.suppress(strategy.kind, policy.reason);
      continue;
    }
    const current = text;
    const planContext = { span, view: context.view, mode: policy.mode, earlierIdentical: duplicates.get(span.key) };
    const planned: Planned<Recipe> | null | undefined = context.attempt(strategy.kind, () => strategy.plan(current, planContext));
    if (!planned) continue;
    steps.push({ kind: strategy.kind, recipe: planned.recipe, replayed: false, raw: undefined, charsRemoved: Math.max(0, current.length - planned.text.length), saved: 0 });
    text = planned.text;
  }
  return { steps, text };
}

/** Keeps a chain only when it pays: any saving without a provider cache, a large share with one. */
function worthIt(state: SpanState, chain: Chain, context: RunContext): boolean {
  if (chain.steps.length === 0) return false;
  const before = state.tokensBefore ?? countTokens(state.span.text);
  state.tokensBefore = before;
  const after = countTokens(chain.text.split(handlePlaceholder).join('ctx_000000000000000000000000'));
  const saved = before - after;
  if (saved <= 0) return false;
  if (context.cacheMode === 'none') return true;
  // A session is likely to go on about as long as it has gone so far; pinned verdicts are never revisited.
  const share = context.pinning ? minSavedShareWhenCached(context.view.modelTurns) : statelessMinSavedShare;
  return saved >= before * share;
}

/** Fresh decision on one span; false when nothing worthwhile applied. */
export function decideSpan(state: SpanState, context: RunContext, duplicates: ReadonlyMap<string, ToolOutputSpan>, allowDegradable = true): boolean {
  const chain = planChain(state, context, duplicates, allowDegradable);
  if (!worthIt(state, chain, context)) return false;
  state.steps = chain.steps;
  state.text = chain.text;
  return true;
}

export function needsHandle(state: SpanState): boolean {
  return state.steps.some((step) => !step.replayed && (step.recipe as { handle?: unknown }).handle === handlePlaceholder);
}
