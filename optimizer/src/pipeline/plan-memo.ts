import { TextMemo } from '../memo/text-memo.js';
import type { Planned, Recipe, SpanStrategy } from '../strategies/types.js';

/** Below this a cleanup is cheaper to redo than to remember. */
const minChars = 8_192;

/**
 * Cleanup plans (their kind and the text alone decide them: no lane, mode or neighbour). A lane without pins
 * re-decides every settled output on every turn, and turn N+1 carries turn N's outputs byte for byte.
 */
class PlanMemo {
  private readonly memo = new TextMemo<Planned<Recipe> | null>(1_024, 32 * 1024 * 1024);

  plan(strategy: SpanStrategy<Recipe>, text: string, compute: () => Planned<Recipe> | null): Planned<Recipe> | null {
    if (text.length < minChars) return compute();
    return this.memo.get(strategy.kind, text, compute, (planned) => planned?.text.length ?? 0);
  }
}

export const planMemo = new PlanMemo();
