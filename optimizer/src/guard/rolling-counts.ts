/**
 * Counters over a rolling window kept in fixed-width buckets. Buckets
 * carry their start time, so a settings change of the width or the window applies from the next bucket on without
 * corrupting what was counted.
 */
export class RollingCounts<Field extends string> {
  private readonly buckets: Array<{ start: number; end: number; counts: Map<Field, number> }> = [];

  add(now: number, field: Field, amount: number, windowMs: number, bucketCount: number): void {
    const width = Math.max(1, Math.floor(windowMs / bucketCount));
    let last = this.buckets[this.buckets.length - 1];
    if (!last || now >= last.end || now < last.start) {
      const start = Math.floor(now / width) * width;
      last = { start, end: start + width, counts: new Map() };
      this.buckets.push(last);
    }
    last.counts.set(field, (last.counts.get(field) ?? 0) + amount);
    this.prune(now, windowMs);
  }

  /** Totals of the buckets that start inside the window: the current one and the `bucketCount − 1` before it. */
  sum(now: number, windowMs: number): Map<Field, number> {
    this.prune(now, windowMs);
    const totals = new Map<Field, number>();
    for (const bucket of this.buckets)
      for (const [field, count] of bucket.counts) totals.set(field, (totals.get(field) ?? 0) + count);
    return totals;
  }

  get(now: number, windowMs: number, field: Field): number {
    return this.sum(now, windowMs).get(field) ?? 0;
  }

  clear(): void {
    this.buckets.length = 0;
  }

  get empty(): boolean {
    return this.buckets.length === 0;
  }

  private prune(now: number, windowMs: number): void {
    const horizon = now - windowMs;
    let drop = 0;
    while (drop < this.buckets.length && (this.buckets[drop]?.start ?? 0) <= horizon) drop += 1;
    if (drop > 0) this.buckets.splice(0, drop);
  }
}
