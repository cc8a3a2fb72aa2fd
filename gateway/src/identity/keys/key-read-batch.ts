interface Waiter<Row> {
  resolve(row: Row | undefined): void;
  reject(error: unknown): void;
}

interface Batch<Row> {
  waiters: Map<string, Array<Waiter<Row>>>;
  timer: NodeJS.Immediate;
  /** The turn ended while a query was in flight: send when it settles. */
  due: boolean;
}

/**
 * Coalesces the per-request key reads into as few store round trips as freshness allows (`WHERE key_hash IN (…)`,
 * padded to a fixed arity by the store). A batch closes at the end of the event-loop turn it opened in (every socket
 * read of a turn runs its identity hook before the check phase), and is sent then unless the previous batch's query
 * is still in flight: it then keeps collecting the reads that arrive meanwhile and goes out the moment that query
 * settles. Under load one query therefore answers every request that arrived during a round trip (one write syscall,
 * one Postgres wakeup, one pool checkout for all of them); with a single request in flight nothing is in flight before
 * it, so its query leaves in the same turn and latency does not grow.
 *
 * A lone read still waits for the end of the turn, on purpose: sending it at once when no query is in flight gained
 * nothing measurable on Postgres, and on the embedded store (then PGlite ran each query on this thread and answered it
 * before the next socket was read; it has its own thread since docs/adr/0033-embedded-store-worker-thread.md) nothing
 * was ever in flight, so every request paid a query of its own (measured: 2,450 → 1,000 req/s, 440 → 1,000 µs CPU per
 * request).
 *
 * This is not a cache (docs/adr/0001-per-request-key-lookup.md): a batch is only ever joined before its query is
 * sent, so every read still starts after its request arrived and sees any revocation committed before that. A
 * failed query rejects every waiter of the batch, which identity turns into 503 `key_store_unavailable`.
 */
export class KeyReadBatch<Row> {
  private open: Batch<Row> | null = null;
  private inFlight = 0;

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
    const batch: Batch<Row> = {
      waiters: new Map(),
      timer: setImmediate(() => this.endOfTurn(batch)),
      due: false,
    };
    this.open = batch;
    return batch;
  }

  private endOfTurn(batch: Batch<Row>): void {
    if (this.inFlight === 0) this.send(batch);
    else batch.due = true;
  }

  private send(batch: Batch<Row>): void {
    clearImmediate(batch.timer);
    if (this.open === batch) this.open = null;
    this.inFlight += 1;
    this.readMany([...batch.waiters.keys()]).then(
      (rows) => {
        this.settled();
        for (const [hash, waiters] of batch.waiters) for (const waiter of waiters) waiter.resolve(rows.get(hash));
      },
      (error: unknown) => {
        this.settled();
        for (const waiters of batch.waiters.values()) for (const waiter of waiters) waiter.reject(error);
      },
    );
  }

  /** A query settled: the reads that arrived while it was out go now, together, before its waiters resume. */
  private settled(): void {
    this.inFlight -= 1;
    const next = this.open;
    if (next?.due && this.inFlight === 0) this.send(next);
  }
}
