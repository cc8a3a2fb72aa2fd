interface Waiter<Row> {
  resolve(row: Row | undefined): void;
  reject(error: unknown): void;
}

interface Batch<Row> {
  waiters: Map<string, Array<Waiter<Row>>>;
  /** Sends the batch at the end of the turn; null for a read sent at once. */
  timer: NodeJS.Immediate | null;
}

/**
 * Coalesces per-request key reads into shared store round trips (`WHERE key_hash = ANY($1)`). A read that finds the
 * store idle (no lookup query in flight) is sent at once, so a lone request never waits. Reads that arrive while a
 * query is in flight join one batch, sent at the end of the event-loop turn: under load every socket read of a turn
 * runs its identity hook before the check phase, so one query answers many requests instead of one query (one write
 * syscall, one Postgres wakeup, one pool checkout) each.
 *
 * This is not a cache (docs/adr/0001-per-request-key-lookup.md): a batch is only ever joined before its query is
 * sent, so every read still starts after its request arrived and sees any revocation committed before that. A
 * failed query rejects every waiter of the batch, which identity turns into 503 `key_store_unavailable`.
 */
export class KeyReadBatch<Row> {
  private open: Batch<Row> | null = null;
  /** Lookup queries sent and not yet answered. */
  private inFlight = 0;

  constructor(
    private readonly readMany: (hashes: string[]) => Promise<ReadonlyMap<string, Row>>,
    /** Distinct hashes per query: bounds the statement's parameter size however large a burst is. */
    private readonly maxHashes = 256,
  ) {}

  read(hash: string): Promise<Row | undefined> {
    return new Promise((resolve, reject) => {
      if (this.inFlight === 0 && this.open === null) {
        this.send({ waiters: new Map([[hash, [{ resolve, reject }]]]), timer: null });
        return;
      }
      const batch = this.open ?? this.start();
      const waiters = batch.waiters.get(hash);
      if (waiters) waiters.push({ resolve, reject });
      else batch.waiters.set(hash, [{ resolve, reject }]);
      if (batch.waiters.size >= this.maxHashes) this.send(batch);
    });
  }

  private start(): Batch<Row> {
    const batch: Batch<Row> = { waiters: new Map(), timer: null };
    batch.timer = setImmediate(() => this.send(batch));
    this.open = batch;
    return batch;
  }

  private send(batch: Batch<Row>): void {
    if (batch.timer) clearImmediate(batch.timer);
    if (this.open === batch) this.open = null;
    this.inFlight += 1;
    this.readMany([...batch.waiters.keys()]).then(
      (rows) => {
        this.inFlight -= 1;
        for (const [hash, waiters] of batch.waiters) for (const waiter of waiters) waiter.resolve(rows.get(hash));
      },
      (error: unknown) => {
        this.inFlight -= 1;
        for (const waiters of batch.waiters.values()) for (const waiter of waiters) waiter.reject(error);
      },
    );
  }
}
