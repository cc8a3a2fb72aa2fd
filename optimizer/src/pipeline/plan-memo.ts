import { TextMemo } from '../memo/text-memo.js';
import type { ElisionMode, Planned, Recipe, SpanStrategy } from '../strategies/types.js';

/** Below this a cleanup is cheaper to redo than to remember. */
const minChars = 8_192;

/**
 * Cleanup plans (their kind, the elision mode and the text alone decide them: no lane detail or neighbour). A lane
 * without pins re-decides every settled output on every turn, and turn N+1 carries turn N's outputs byte for byte.
 */
class PlanMemo {
  private readonly memo = new TextMemo<Planned<Recipe> | null>(1_024, 32 * 1024 * 1024);

  plan(
    strategy: SpanStrategy<Recipe>,
    mode: ElisionMode,
    text: string,
    compute: () => Planned<Recipe> | null,
  ): Planned<Recipe> | null {
    if (text.length < minChars) return compute();
    return this.memo.get(`${strategy.kind}:${mode}`, text, compute, (planned) => planned?.text.length ?? 0);
  }
}

export const planMemo = new PlanMemo();
