import type { ToolOutputSpan } from '../format/request-view.js';
import type { Recipe, StrategyKind } from '../strategies/types.js';

/** One strategy's rewrite of one span in this request. */
export interface AppliedStep {
  readonly kind: StrategyKind;
  recipe: Recipe;
  /** Came from a pin (its `raw` is returned as it came). */
  readonly replayed: boolean;
  readonly raw: unknown;
  /** Characters removed by this step; splits a span's token saving between its steps. */
  readonly charsRemoved: number;
  saved: number;
}

/** The working copy of one tool output while the pipeline runs. */
export class SpanState {
  text: string;
  steps: AppliedStep[] = [];
  /** The real handle of this span's original, once the stash committed it or a replayed pin carried it. */
  handle: string | null = null;
  /** Pins matched this location this turn (replayed or declined): no fresh decisions on it. */
  pinned = false;
  /** Incoming pins kept for the returned list, in their incoming order (replayed and declined alike). */
  readonly keptRaw: unknown[] = [];
  /** Token counts of the original and the final text, once known. */
  tokensBefore: number | undefined;

  constructor(readonly span: ToolOutputSpan) {
    this.text = span.text;
  }

  get rewritten(): boolean {
    return this.text !== this.span.text;
  }

  hasStep(kind: StrategyKind): boolean {
    return this.steps.some((step) => step.kind === kind);
  }
}
