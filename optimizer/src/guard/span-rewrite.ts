/**
 * What the pipeline did to one tool output, as the guard needs it (the pipeline's `rewrites` result field): where
 * the output sits, the call that produced it, the handle of its stashed original and each strategy step applied.
 */
export interface SpanRewrite {
  /** Location key (`m5`, `m5.p1`), stable for a position in an append-only transcript. */
  readonly key: string;
  readonly messageIndex: number;
  readonly toolName?: string | undefined;
  /** The call's arguments as the client sent them. */
  readonly toolInput?: string | undefined;
  /** Handle of the stashed original, when a step elided behind one. */
  readonly handle: string | null;
  readonly steps: ReadonlyArray<{ readonly kind: string; readonly replayed: boolean; readonly handle: boolean }>;
  /** Rewritten on its fresh turn (a fresh reversible trim): its regrets are charged to the `fresh_trim` lane too. */
  readonly fresh?: boolean | undefined;
}

/**
 * The regression guard's lane for fresh reversible trims as a whole (docs/adr/0021-fresh-reversible-trimming.md): a
 * retrieve of a fresh-trimmed output's handle, or its call re-run with the same arguments, is charged here as well as
 * to the strategy, so a tenant whose model keeps undoing fresh trims loses fresh trimming first, not the strategy on
 * settled history.
 */
export const freshTrimLane = 'fresh_trim';

/** Kinds whose rewrite replaces a tool result with a marker (a reference, a stub, a fold or a summary). */
export const markerKinds: ReadonlySet<string> = new Set([
  'dedupe_tool_result',
  'file_outline',
  'listing_group',
  'test_log_failures',
  'json_array_summary',
  'log_fold',
  'elide_tool_output',
  'window_budget',
]);

/**
 * Kinds that crop the window or downshift reasoning: the same request retried right after is a regret (spec 001
 * ). `window_budget` is the only one today; a reasoning-downshift strategy joins by reporting its kind in the
 * pipeline result's `downshiftKinds`.
 */
export const cropKinds: ReadonlySet<string> = new Set(['window_budget']);
