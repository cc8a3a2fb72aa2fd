/**
 * Work a request starts and does not wait for (an audit write, a slot given back after the response ended). Tracking
 * it lets shutdown and tests wait for exactly that work to finish instead of for a while.
 */
export class PendingWork {
  private readonly running = new Set<Promise<unknown>>();

  /** Track `work` until it settles; a failure is the caller's to handle, this only waits. */
  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(settled);
    void settled.then(() => this.running.delete(settled));
    return work;
  }

  /** Resolves once every piece of work tracked so far, and any tracked while waiting, has settled. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
