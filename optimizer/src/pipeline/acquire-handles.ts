import type { ToolOutputSpan } from '../format/request-view.js';
import { handlePlaceholder, type DegradableRecipe } from '../strategies/types.js';
import { decideSpan, losslessOnly, needsHandle } from './decide-spans.js';
import type { RunContext } from './run-context.js';
import type { SpanState } from './span-state.js';

const handlePattern = /^ctx_[A-Za-z0-9_-]{1,128}$/;

/** A handle, or null when the store could not durably commit (or answered something unusable). */
export async function stashOriginal(context: RunContext, content: string): Promise<string | null> {
  try {
    const handle = await context.deps.stash.put(content);
    return typeof handle === 'string' && handlePattern.test(handle) ? handle : null;
  } catch {
    return null;
  }
}

/** Puts the real handle where the placeholder stood, in the text and in every recipe of the span. */
export function bindHandle(state: SpanState, handle: string): void {
  state.text = state.text.split(handlePlaceholder).join(handle);
  for (const step of state.steps) {
    const recipe = step.recipe as Partial<DegradableRecipe>;
    if (recipe.handle === handlePlaceholder) step.recipe = { ...step.recipe, handle } as DegradableRecipe;
  }
  state.handle = handle;
}

/**
 * Stashes the original of every span whose decision dropped content behind a handle. The writes start in span
 * order and run together; a span whose write did not commit keeps its bytes except for lossless cleanups
 *.
 */
export async function acquireHandles(
  states: readonly SpanState[],
  context: RunContext,
  duplicates: ReadonlyMap<string, ToolOutputSpan>,
): Promise<number> {
  const waiting = states.filter(needsHandle);
  const handles = await Promise.all(waiting.map((state) => stashOriginal(context, state.span.text)));
  let failures = 0;
  waiting.forEach((state, index) => {
    const handle = handles[index];
    if (handle) {
      bindHandle(state, handle);
      return;
    }
    failures += 1;
    for (const step of state.steps) context.held.add(step.kind);
    state.steps = [];
    state.text = state.span.text;
    // A fresh output the model has not read yet keeps every byte when its original cannot be stashed.
    if (state.span.settled || context.lane.freshEligible) decideSpan(state, context, duplicates, losslessOnly);
  });
  return failures;
}
