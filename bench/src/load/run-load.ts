import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import type { LoadJob, LoadResult } from './load-job.js';
import { Samples } from './samples.js';

const DONE_MARKER = 'data: [DONE]';

/** One measured phase. Runs in the load generator's own process so its CPU is never counted as the server's. */
export async function runLoad(job: LoadJob): Promise<LoadResult> {
  const pool = new Pool(job.origin, {
    connections: job.connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    keepAliveMaxTimeout: 60_000,
  });
  const recorder = new Recorder(job.maxRequests);
  try {
    if (job.kind === 'closed') await closedLoop(pool, job, recorder);
    else if (job.kind === 'open') await openLoop(pool, job, recorder);
    else await serial(pool, job, recorder);
  } finally {
    await pool.close();
  }
  return recorder.result();
}

/** `connections` workers, each sending its next request as soon as the previous one is answered. */
async function closedLoop(pool: Pool, job: LoadJob, recorder: Recorder): Promise<void> {
  recorder.start();
  const deadline = performance.now() + job.durationMs;
  let issued = 0;
  const worker = async () => {
    while (issued < job.maxRequests && performance.now() < deadline) {
      issued += 1;
      await recorder.measure(pool, job);
    }
  };
  await Promise.all(Array.from({ length: job.connections }, worker));
  recorder.stop();
}

/**
 * A fixed offered rate, independent of how fast answers come back (the schedule never waits for a response), so a
 * slow server shows up as latency instead of silently lowering the load.
 */
async function openLoop(pool: Pool, job: LoadJob, recorder: Recorder): Promise<void> {
  const total = Math.min(job.maxRequests, Math.max(1, Math.floor((job.rate * job.durationMs) / 1000)));
  const interval = 1000 / job.rate;
  const inFlight: Array<Promise<void>> = [];
  recorder.start();
  const start = performance.now();
  for (let index = 0; index < total; index += 1) {
    const wait = start + index * interval - performance.now();
    if (wait >= 1) await sleep(wait);
    inFlight.push(recorder.measure(pool, job));
  }
  await Promise.all(inFlight);
  recorder.stop();
}

/** One request at a time: the latency a single developer sees, and time to first byte of a stream. */
async function serial(pool: Pool, job: LoadJob, recorder: Recorder): Promise<void> {
  recorder.start();
  const deadline = performance.now() + job.durationMs;
  for (let index = 0; index < job.maxRequests && performance.now() < deadline; index += 1)
    await recorder.measure(pool, job);
  recorder.stop();
}

class Recorder {
  readonly #latencies: Samples;
  readonly #ttfb: Samples;
  #requests = 0;
  #errors = 0;
  #firstError: string | null = null;
  #startedAt = 0;
  #stoppedAt = 0;

  constructor(capacity: number) {
    this.#latencies = new Samples(capacity);
    this.#ttfb = new Samples(capacity);
  }

  start(): void {
    this.#startedAt = performance.now();
  }

  stop(): void {
    this.#stoppedAt = performance.now();
  }

  /** Never rejects: a failed request is counted and the phase goes on. */
  async measure(pool: Pool, job: LoadJob): Promise<void> {
    const sentAt = performance.now();
    this.#requests += 1;
    try {
      const response = await pool.request({ method: 'POST', path: job.path, headers: job.headers, body: job.body });
      let firstByteAt = 0;
      let tail = '';
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        if (firstByteAt === 0) firstByteAt = performance.now();
        if (job.stream) tail = (tail + chunk.toString('latin1')).slice(-64);
      }
      const endedAt = performance.now();
      if (response.statusCode !== 200) return this.#fail(`status ${response.statusCode}`);
      if (job.stream && !tail.includes(DONE_MARKER)) return this.#fail('stream ended without data: [DONE]');
      this.#latencies.add(endedAt - sentAt);
      this.#ttfb.add((firstByteAt || endedAt) - sentAt);
    } catch (error) {
      this.#fail(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    }
  }

  #fail(message: string): void {
    this.#errors += 1;
    this.#firstError ??= message;
  }

  result(): LoadResult {
    return {
      requests: this.#requests,
      errors: this.#errors,
      firstError: this.#firstError,
      elapsedMs: this.#stoppedAt - this.#startedAt,
      latenciesMs: this.#latencies.toArray(),
      ttfbMs: this.#ttfb.toArray(),
    };
  }
}
