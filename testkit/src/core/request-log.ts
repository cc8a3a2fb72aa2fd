import type { IncomingHttpHeaders } from 'node:http';
import { realClearTimeout, realSetTimeout } from './real-timers.js';

/** One request as the simulator received it, so tests can assert exactly what a gateway forwarded. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Path and query string as received. */
  url: string;
  query: Record<string, string>;
  /** Lower-cased header names, as node:http delivers them. */
  headers: IncomingHttpHeaders;
  /** Raw body text (utf-8). */
  body: string;
  /** Parsed body when it was valid JSON, otherwise undefined. */
  json: unknown;
  receivedAt: number;
}

interface Waiter {
  count: number;
  resolve: (requests: RecordedRequest[]) => void;
}

/** Append-only log of recorded requests with a way to await the N-th one (alerts and retries arrive asynchronously). */
export class RequestLog {
  readonly requests: RecordedRequest[] = [];
  #waiters: Waiter[] = [];

  constructor(private readonly enabled: boolean) {}

  add(request: RecordedRequest): void {
    if (!this.enabled) return;
    this.requests.push(request);
    if (this.#waiters.length === 0) return;
    const ready = this.#waiters.filter((waiter) => this.requests.length >= waiter.count);
    this.#waiters = this.#waiters.filter((waiter) => this.requests.length < waiter.count);
    for (const waiter of ready) waiter.resolve(this.requests.slice());
  }

  clear(): void {
    this.requests.length = 0;
  }

  /** Resolves once `count` requests are recorded; rejects after `timeoutMs` (real timers, immune to fake clocks). */
  waitFor(count: number, timeoutMs = 5_000): Promise<RecordedRequest[]> {
    if (this.requests.length >= count) return Promise.resolve(this.requests.slice());
    return new Promise((resolve, reject) => {
      const timer = realSetTimeout(() => {
        this.#waiters = this.#waiters.filter((waiter) => waiter !== entry);
        reject(new Error(`expected ${count} recorded requests within ${timeoutMs} ms, got ${this.requests.length}`));
      }, timeoutMs);
      const entry: Waiter = {
        count,
        resolve: (requests) => {
          realClearTimeout(timer);
          resolve(requests);
        },
      };
      this.#waiters.push(entry);
    });
  }
}
