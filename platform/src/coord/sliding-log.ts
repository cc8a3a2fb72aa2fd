/**
 * Exact sliding-window log for the in-process limiter: the admission times in the window, ascending. An admission
 * at `t` counts while `now < t + windowMs`, the same rule the Redis script applies with ZREMRANGEBYSCORE.
 */
export interface SlidingLog {
  readonly times: number[];
  /** Window of the latest call, so the sweeper knows when the whole log is stale. */
  windowMs: number;
}

/** Drops admissions that have left the window ending at `now`. */
export function pruneLog(log: SlidingLog, now: number): void {
  const boundary = now - log.windowMs;
  let leaving = 0;
  while (leaving < log.times.length && (log.times[leaving] ?? Infinity) <= boundary) leaving += 1;
  if (leaving > 0) log.times.splice(0, leaving);
}

/** Records an admission, keeping the log ascending even if the clock was set back. */
export function recordAdmission(log: SlidingLog, now: number): void {
  let index = log.times.length;
  while (index > 0 && (log.times[index - 1] ?? -Infinity) > now) index -= 1;
  log.times.splice(index, 0, now);
}

/**
 * Milliseconds until the log holds fewer than `limit` admissions: the admission at position `count - limit` must
 * leave (the oldest when the log is exactly full; a later one if the limit was lowered). With no such admission
 * (limit 0 or less) nothing will ever free a slot, so the hint is one full window.
 */
export function retryAfter(log: SlidingLog, limit: number, now: number): number {
  const blocking = limit > 0 ? log.times[log.times.length - limit] : undefined;
  if (blocking === undefined) return log.windowMs;
  return Math.max(1, blocking + log.windowMs - now);
}

/** True when nothing in the log can count again: every admission is at least one window old. */
export function isStale(log: SlidingLog, now: number): boolean {
  const newest = log.times[log.times.length - 1];
  return newest === undefined || newest + log.windowMs <= now;
}
