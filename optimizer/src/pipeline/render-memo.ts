import { TextMemo } from '../memo/text-memo.js';
import type { Recipe, SpanStrategy } from '../strategies/types.js';

/** Small renders are cheap to redo; remembering them would only churn the memo. */
const minChars = 8_192;

/**
 * Replays are the hot path: every later turn re-renders every pinned span from the same original bytes with the
 * same recipe. A rendering is a pure function of (kind, recipe, input), so it is remembered across requests.
 */
class RenderMemo {
  private readonly memo = new TextMemo<string>(2_048, 64 * 1024 * 1024);

  render(strategy: SpanStrategy<Recipe>, input: string, recipe: Recipe): string {
    const compute = () => strategy.render(input, recipe);
    if (input.length < minChars) return compute();
    return this.memo.get(`${strategy.kind}\u0000${JSON.stringify(recipe)}`, input, compute, (output) => output.length);
  }
}

export const renderMemo = new RenderMemo();
