import type { RequestView, ToolOutputSpan } from '../format/request-view.js';

/** Every strategy kind, in the order the pipeline applies them to one tool output. */
export const spanStrategyKinds = [
  'dedupe_tool_result',
  'file_outline',
  'listing_group',
  'test_log_failures',
  'json_array_summary',
  'json_minify',
  'log_fold',
  'elide_tool_output',
  'ansi_strip',
  'whitespace_trim',
] as const;
export type SpanStrategyKind = (typeof spanStrategyKinds)[number];
export const strategyKinds = [...spanStrategyKinds, 'window_budget'] as const;
export type StrategyKind = (typeof strategyKinds)[number];

export function isStrategyKind(value: unknown): value is StrategyKind {
  return typeof value === 'string' && (strategyKinds as readonly string[]).includes(value);
}

/**
 * How a degradable strategy may drop content: `handle` stashes the original and leaves a `ctx_`
 * handle; `in_place` trims without one (`reversible: false`).
 */
export type ElisionMode = 'handle' | 'in_place';

/**
 * A replay recipe: the parameters that recompute a rewrite from the original bytes, never the rewritten text
 *. `r` is the recipe version; an unknown version is declined.
 */
export interface Recipe {
  readonly r: number;
}

/** Recipe of a strategy that can drop content: `handle` null means trimmed in place. */
export interface DegradableRecipe extends Recipe {
  readonly handle: string | null;
}

/**
 * Stands in for the handle while a request is planned; the real handle exists only after the stash's bounded durable
 * write completed, and is substituted before anything leaves the pipeline.
 */
export const handlePlaceholder = '\uE000gw-handle\uE001';

export interface SpanPlanContext {
  readonly span: ToolOutputSpan;
  readonly view: RequestView;
  /** For degradable strategies: how content may be dropped. Lossless strategies ignore it. */
  readonly mode: ElisionMode;
  /** The first earlier span whose original bytes equal this span's, if any (for deduplication). */
  readonly earlierIdentical: ToolOutputSpan | undefined;
}

/** A decision: the recipe to pin and the rewritten text it produces (with the handle placeholder, if any). */
export interface Planned<R extends Recipe> {
  readonly recipe: R;
  readonly text: string;
}

/** A strategy over one tool output: pure, deterministic, and replayable from its recipe. */
export interface SpanStrategy<R extends Recipe = Recipe> {
  readonly kind: StrategyKind;
  /** Drops content (needs a handle or an in-place permission); lossless strategies run on every lane. */
  readonly degradable: boolean;
  /** Below this many characters the strategy never acts; lets the pipeline skip work cheaply. */
  readonly minChars: number;
  /** Decide on `text` (the span after earlier strategies); null means leave it alone. */
  plan(text: string, context: SpanPlanContext): Planned<R> | null;
  /** The rewrite; `render(text, recipe)` must give the same bytes on every call and every replica. */
  render(text: string, recipe: R): string;
  /** Validates a recipe read back from a pin (opaque JSON from the adapter's store). */
  parseRecipe(value: unknown): R | null;
  /** Extra replay check against the current request (a deduplication target must still be there). */
  canReplay?(recipe: R, span: ToolOutputSpan, view: RequestView): boolean;
}
