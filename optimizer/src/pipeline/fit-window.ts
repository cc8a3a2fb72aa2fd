import type { JsonObject } from '../format/json-value.js';
import { planWindowStub, windowLimitTokens } from '../strategies/window-budget.js';
import { handlePlaceholder } from '../strategies/types.js';
import { countTokens, estimateTokensOfStrings } from '../tokens/count-tokens.js';
import { bindHandle, stashOriginal } from './acquire-handles.js';
import type { RunContext } from './run-context.js';
import type { SpanState } from './span-state.js';

/** Every string of the request except the tool outputs (system prompt, tools, turns, keys): the fixed part. */
function fixedStrings(request: JsonObject, skip: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      if (!skip.has(path)) out.push(value);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => walk(item, `${path}/${index}`));
      return;
    }
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      walk(item, `${path}/${key}`);
    }
  };
  walk(request, '');
  return out;
}

function pathKey(path: readonly (string | number)[]): string {
  return path.map((segment) => `/${segment}`).join('');
}

interface Estimate {
  readonly tokens: number;
  /** Tokens per character of this request, to price a cut without re-tokenizing. */
  readonly ratio: number;
}

/** Characters of every string and key in a JSON value: an allocation-free upper bound on its tokens. */
function charsOf(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 0;
  let chars = 0;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) chars += charsOf(item);
    return chars;
  }
  for (const [key, item] of Object.entries(value)) chars += key.length + charsOf(item);
  return chars;
}

function estimate(context: RunContext, states: readonly SpanState[], limit: number): Estimate | null {
  // A token covers at least one character, so a request with fewer characters than the limit fits: the common case
  // is settled without collecting (or tokenizing) a single string.
  let bound = charsOf(context.input.request);
  for (const state of states) bound += state.text.length - state.span.text.length;
  if (bound <= limit) return null;
  const fixed = fixedStrings(context.input.request, new Set(states.map((state) => pathKey(state.span.path))));
  const texts = states.map((state) => state.text);
  let chars = 0;
  for (const text of fixed) chars += text.length;
  for (const text of texts) chars += text.length;
  const tokens = estimateTokensOfStrings([...fixed, ...texts]);
  return { tokens, ratio: chars === 0 ? 0 : tokens / chars };
}

/**
 * window_budget: when the estimate exceeds `min(modelContextTokens, clientContextBudgetTokens)`
 * (190k when unknown) less 5%, the oldest settled tool outputs are cut to a stub, oldest first, until it fits.
 * Pressure overrides prefix protection: an oversized request would fail upstream anyway.
 */
export async function fitWindow(states: readonly SpanState[], context: RunContext): Promise<void> {
  const limit = windowLimitTokens(
    context.numberMetadata('modelContextTokens'),
    context.capabilities.clientContextBudgetTokens,
  );
  const measured = estimate(context, states, limit);
  if (!measured || measured.tokens <= limit) return;
  const policy = context.policy('window_budget');
  if (!policy.run) {
    if (policy.reason) context.suppress('window_budget', policy.reason);
    return;
  }
  let over = measured.tokens - limit;
  const candidates = states.filter(
    (state) => state.span.settled && !state.hasStep('window_budget') && state.text.length >= 1_000,
  );
  for (const state of candidates) {
    if (over <= 0) return;
    const before = state.text;
    const planned = context.attempt('window_budget', () => planWindowStub(before, policy.mode));
    if (!planned) continue;
    let handle: string | null = null;
    if (policy.mode === 'handle') {
      handle = state.handle ?? (await stashOriginal(context, state.span.text));
      if (!handle) continue;
    }
    state.tokensBefore ??= countTokens(state.span.text);
    state.steps.push({
      kind: 'window_budget',
      recipe: planned.recipe,
      replayed: false,
      raw: undefined,
      charsRemoved: before.length - planned.text.length,
      saved: 0,
    });
    state.text = planned.text;
    if (handle) {
      if (state.handle === null) bindHandle(state, handle);
      else state.text = state.text.split(handlePlaceholder).join(handle);
      const last = state.steps[state.steps.length - 1];
      if (last) last.recipe = { ...last.recipe, handle } as typeof last.recipe;
    }
    over -= Math.round((before.length - state.text.length) * measured.ratio);
  }
}
