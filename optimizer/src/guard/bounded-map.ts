/**
 * A map that forgets its oldest entries past a capacity: the guard's per-replica memories (handles, fires,
 * sessions) must stay bounded whatever the traffic. Setting a key again moves it to the young end.
 */
export class BoundedMap<Key, Value> {
  private readonly entries = new Map<Key, Value>();

  constructor(private readonly capacity: number) {}

  get(key: Key): Value | undefined {
    return this.entries.get(key);
  }

  set(key: Key, value: Value): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }

  delete(key: Key): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
