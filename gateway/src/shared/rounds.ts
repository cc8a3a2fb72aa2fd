/**
 * A background job run in rounds: one round at a time (a call while one runs joins it), the next one scheduled
 * `delayMs()` after the previous finished, and `stop()` waiting for the round in flight so a shutdown never cuts a
 * delivery half way. The job's own state (failures, backoff) stays with its owner, which reads it in `delayMs`.
 */
export class Rounds {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly round: () => Promise<void>,
    private readonly delayMs: () => number,
  ) {}

  /** Runs a round now (or joins the one running); resolves when it is done, whatever happened. */
  runOnce(): Promise<void> {
    this.running ??= this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** The next round, `delayMs()` from now; each round schedules the one after it. */
  schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.runOnce().then(() => this.schedule()), this.delayMs());
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
