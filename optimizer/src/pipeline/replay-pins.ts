import { strategyFor } from '../strategies/registry.js';
import type { DegradableRecipe, Recipe } from '../strategies/types.js';
import { spanHash, type IncomingSpanPin } from './pins.js';
import { renderMemo } from './render-memo.js';
import type { RunContext } from './run-context.js';
import type { SpanState } from './span-state.js';

export interface ReplayOutcome {
  readonly replayed: number;
  readonly discarded: number;
  /** Smallest message index where a pin no longer matched: the bytes there changed, the cached prefix ends. */
  readonly firstDiscardIndex: number | undefined;
  /** Largest message index with a replayed pin. */
  readonly lastReplayedIndex: number | undefined;
}

const handlePattern = /^ctx_[A-Za-z0-9_-]{1,128}$/;

function recipeHandle(recipe: Recipe): string | null | undefined {
  const handle = (recipe as Partial<DegradableRecipe>).handle;
  return typeof handle === 'string' || handle === null ? handle : undefined;
}

type Verdict = 'replay' | 'decline' | 'discard';

function judge(
  entry: IncomingSpanPin,
  state: SpanState,
  context: RunContext,
  chainBroken: boolean,
): { verdict: Verdict; recipe?: Recipe } {
  const { pin } = entry;
  if (pin.spanHash !== spanHash(context.deps.hmacKey, pin.kind, state.span, state.span.text))
    return { verdict: 'discard' };
  if (chainBroken) return { verdict: 'decline' };
  const strategy = strategyFor(pin.kind);
  const recipe = strategy.parseRecipe(pin.recipe);
  if (!recipe) return { verdict: 'decline' };
  const handle = recipeHandle(recipe);
  if (typeof handle === 'string' && (!handlePattern.test(handle) || context.lane.replay === 'handle_free'))
    return { verdict: 'decline' };
  if (!context.isEnabled(pin.kind)) return { verdict: 'decline' };
  if (strategy.canReplay && !strategy.canReplay(recipe, state.span, context.view)) return { verdict: 'discard' };
  return { verdict: 'replay', recipe };
}

/**
 * Replays every pin whose spanHash still matches the span's original bytes, byte for byte, in the order the chain
 * was built (the contract rules 1–3). A mismatch discards just that pin; a pin this turn may not apply (kill
 * switch, handle on a handle-free lane, unknown recipe version) is declined but returned. Once one link of a
 * span's chain is not applied, the later links are declined too: they were computed on its output.
 */
export function replayPins(
  incoming: readonly IncomingSpanPin[],
  states: ReadonlyMap<string, SpanState>,
  context: RunContext,
): ReplayOutcome {
  let replayed = 0;
  let discarded = 0;
  let firstDiscardIndex: number | undefined;
  let lastReplayedIndex: number | undefined;
  const broken = new Set<SpanState>();
  for (const entry of incoming) {
    const state = states.get(entry.key);
    if (!state) {
      discarded += 1;
      firstDiscardIndex = Math.min(firstDiscardIndex ?? entry.pin.messageIndex, entry.pin.messageIndex);
      continue;
    }
    const { verdict, recipe } = judge(entry, state, context, broken.has(state));
    if (verdict === 'discard') {
      discarded += 1;
      firstDiscardIndex = Math.min(firstDiscardIndex ?? entry.pin.messageIndex, entry.pin.messageIndex);
      broken.add(state);
      continue;
    }
    // Kept pins (replayed or declined) own their span this turn; a discarded one leaves it free to decide afresh.
    state.pinned = true;
    state.keptRaw.push(entry.raw);
    if (verdict === 'decline' || !recipe) {
      broken.add(state);
      continue;
    }
    const strategy = strategyFor(entry.pin.kind);
    const before = state.text;
    const after = context.attempt(entry.pin.kind, () => renderMemo.render(strategy, before, recipe));
    if (after === undefined) {
      broken.add(state);
      continue;
    }
    state.text = after;
    state.steps.push({
      kind: entry.pin.kind,
      recipe,
      replayed: true,
      raw: entry.raw,
      charsRemoved: Math.max(0, before.length - after.length),
      saved: entry.pin.saved,
    });
    const handle = recipeHandle(recipe);
    if (typeof handle === 'string') state.handle = handle;
    replayed += 1;
    lastReplayedIndex = Math.max(lastReplayedIndex ?? 0, entry.pin.messageIndex);
  }
  return { replayed, discarded, firstDiscardIndex, lastReplayedIndex };
}
