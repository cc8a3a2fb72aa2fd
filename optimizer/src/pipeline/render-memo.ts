import type { Recipe, SpanStrategy } from '../strategies/types.js';

const maxEntries = 2_048;
const maxChars = 64 * 1024 * 1024;

interface Entry {
  readonly output: string;
  readonly chars: number;
}

/**
 * Replays are the hot path: every later turn re-renders every pinned span from the same original bytes with the
 * same recipe. A rendering is a pure function of (kind, recipe, input), so it is remembered across requests, bounded
 * by entries and characters held. Lookups compare the input string, far cheaper than folding 300 KB again.
 */
class RenderMemo {
  private readonly entries = new Map<string, Map<string, Entry>>();
  private readonly order: { recipeKey: string; input: string }[] = [];
  private chars = 0;

  render(strategy: SpanStrategy<Recipe>, input: string, recipe: Recipe): string {
    const recipeKey = `${strategy.kind}\u0000${JSON.stringify(recipe)}`;
    const byInput = this.entries.get(recipeKey);
    const hit = byInput?.get(input);
    if (hit) return hit.output;
    const output = strategy.render(input, recipe);
    // Small renders are cheap to redo; remembering them would only churn the memo.
    if (input.length >= 8_192) this.remember(recipeKey, input, output, byInput);
    return output;
  }

  private remember(recipeKey: string, input: string, output: string, existing: Map<string, Entry> | undefined): void {
    const byInput = existing ?? new Map<string, Entry>();
    if (!existing) this.entries.set(recipeKey, byInput);
    const chars = input.length + output.length;
    byInput.set(input, { output, chars });
    this.order.push({ recipeKey, input });
    this.chars += chars;
    while (this.order.length > maxEntries || this.chars > maxChars) this.evictOldest();
  }

  private evictOldest(): void {
    const oldest = this.order.shift();
    if (!oldest) return;
    const byInput = this.entries.get(oldest.recipeKey);
    const entry = byInput?.get(oldest.input);
    if (!byInput || !entry) return;
    byInput.delete(oldest.input);
    this.chars -= entry.chars;
    if (byInput.size === 0) this.entries.delete(oldest.recipeKey);
  }
}

// Shared across requests on purpose: it memoizes a pure function, so it changes latency, never output.
export const renderMemo = new RenderMemo();
