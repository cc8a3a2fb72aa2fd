import type { Planned, Recipe, SpanStrategy } from '../strategies/types.js';

const maxEntries = 1_024;
const maxChars = 32 * 1024 * 1024;
/** Below this a cleanup is cheaper to redo than to remember. */
const minChars = 8_192;

interface Entry {
  readonly planned: Planned<Recipe> | null;
  readonly chars: number;
}

/**
 * A lane without pins re-decides every settled output on every turn, and turn N+1 carries turn N's outputs byte for
 * byte.
 * Their plans depend on the text alone (no lane, mode or neighbour), so a plan is remembered by kind and input,
 * bounded by entries and characters held: repeated turns compare strings instead of stripping 300 KB again.
 */
class PlanMemo {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  plan(strategy: SpanStrategy<Recipe>, text: string, compute: () => Planned<Recipe> | null): Planned<Recipe> | null {
    if (text.length < minChars) return compute();
    const key = `${strategy.kind}\u0000${text}`;
    const hit = this.entries.get(key);
    if (hit) return hit.planned;
    const planned = compute();
    const chars = text.length + (planned?.text.length ?? 0);
    this.entries.set(key, { planned, chars });
    this.chars += chars;
    while (this.entries.size > maxEntries || this.chars > maxChars) this.evictOldest();
    return planned;
  }

  private evictOldest(): void {
    const oldest = this.entries.entries().next();
    if (oldest.done) return;
    this.entries.delete(oldest.value[0]);
    this.chars -= oldest.value[1].chars;
  }
}

// Shared across requests on purpose: it memoizes pure functions, so it changes latency, never output.
export const planMemo = new PlanMemo();
