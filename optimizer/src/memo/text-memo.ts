interface Entry<Value> {
  readonly scope: string;
  readonly text: string;
  readonly value: Value;
  readonly chars: number;
}

/**
 * A bounded memo of a pure function of a (possibly very long) text within a scope (a strategy kind, a recipe).
 * Turn N+1 of a session carries turn N's tool outputs byte for byte, so the same long strings come back on every
 * turn; a lookup compares the string, far cheaper than tokenizing, folding or hashing 300 KB again. Bounded by entries
 * and by characters held (keys and values), oldest out first, so the strings it keeps alive stay bounded too.
 *
 * Memos are shared across requests on purpose: they remember pure functions, so they change latency, never output.
 */
export class TextMemo<Value> {
  private readonly byScope = new Map<string, Map<string, Entry<Value>>>();
  /** Insertion order, for eviction (a Set deletes its oldest in constant time, an array's `shift` does not). */
  private readonly order = new Set<Entry<Value>>();
  private chars = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
  ) {}

  /** The remembered value for `text` in `scope`, or `compute()`'s, remembered with the characters `charsOf` says it holds. */
  get(scope: string, text: string, compute: () => Value, charsOf: (value: Value) => number = () => 0): Value {
    const byText = this.byScope.get(scope);
    const hit = byText?.get(text);
    if (hit) return hit.value;
    const value = compute();
    const entry: Entry<Value> = { scope, text, value, chars: text.length + charsOf(value) };
    if (byText) byText.set(text, entry);
    else this.byScope.set(scope, new Map([[text, entry]]));
    this.order.add(entry);
    this.chars += entry.chars;
    while (this.order.size > this.maxEntries || this.chars > this.maxChars) this.evictOldest();
    return value;
  }

  private evictOldest(): void {
    const oldest = this.order.values().next();
    if (oldest.done) return;
    const entry = oldest.value;
    this.order.delete(entry);
    this.chars -= entry.chars;
    const byText = this.byScope.get(entry.scope);
    byText?.delete(entry.text);
    if (byText?.size === 0) this.byScope.delete(entry.scope);
  }
}
