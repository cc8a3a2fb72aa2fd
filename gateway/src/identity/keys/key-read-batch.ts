interface Waiter<Row> {
  resolve(row: Row | undefined): void;
  reject(error: unknown): void;
}

interface Batch<Row> {
  waiters: Map<string, Array<Waiter<Row>>>;
  timer: NodeJS.Immediate;
}

/**
 * Coalesces the per-request key reads that arrive in one event-loop turn into one store round trip
 * (`WHERE key_hash IN (…)`, padded to a fixed arity by the store). Every socket read of a turn runs its identity hook
 * before the check phase, so under load one query answers many requests instead of one query (one write syscall, one
 * Postgres wakeup, one pool checkout) each; with a single request in flight the query goes out in the same turn, so
 * latency does not grow.
 *
 * A lone read still waits for the end of the turn, on purpose: sending it at once when no query is in flight gained
 * nothing measurable on Postgres, and on the embedded store (PGlite, which runs each query on this thread and answers
 * it before the next socket is read) nothing is ever in flight, so every request paid a query of its own (measured:
 * 2,450 → 1,000 req/s, 440 → 1,000 µs CPU per request).
 *
 * This is not a cache (docs/adr/0001-per-request-key-lookup.md): a batch is only ever joined before its query is
 * sent, so every read still starts after its request arrived and sees any revocation committed before that. A
 * failed query rejects every waiter of the batch, which identity turns into 503 `key_store_unavailable`.
 */
export class KeyReadBatch<Row> {
  private open: Batch<Row> | null = null;

  constructor(
    private readonly readMany: (hashes: string[]) => Promise<ReadonlyMap<string, Row>>,
    /** Distinct hashes per query: bounds the statement's parameter size however large a burst is. */
    private readonly maxHashes = 256,
  ) {}

  read(hash: string): Promise<Row | undefined> {
    return new Promise((resolve, reject) => {
      const batch = this.open ?? this.start();
      const waiters = batch.waiters.get(hash);
      if (waiters) waiters.push({ resolve, reject });
      else batch.waiters.set(hash, [{ resolve, reject }]);
      if (batch.waiters.size >= this.maxHashes) this.send(batch);
    });
  }

  private start(): Batch<Row> {
    const batch: Batch<Row> = { waiters: new Map(), timer: setImmediate(() => this.send(batch)) };
    this.open = batch;
    return batch;
  }

  private send(batch: Batch<Row>): void {
    clearImmediate(batch.timer);
    if (this.open === batch) this.open = null;
    this.readMany([...batch.waiters.keys()]).then(
      (rows) => {
        for (const [hash, waiters] of batch.waiters) for (const waiter of waiters) waiter.resolve(rows.get(hash));
      },
      (error: unknown) => {
        for (const waiters of batch.waiters.values()) for (const waiter of waiters) waiter.reject(error);
      },
    );
  }
}
