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
}

/** Kinds whose rewrite replaces a tool result with a marker (a reference, a stub, a fold or a summary). */
export const markerKinds: ReadonlySet<string> = new Set(['dedupe_tool_result', 'file_outline', 'json_array_summary', 'log_fold', 'elide_tool_output', 'window_budget']);

/**
 * Kinds that crop the window or downshift reasoning: the same request retried right after is a regret (spec 001
 * §3.2). `window_budget` is the only one today; a reasoning-downshift strategy joins by reporting its kind in the
 * pipeline result's `downshiftKinds`.
 */
export const cropKinds: ReadonlySet<string> = new Set(['window_budget']);
