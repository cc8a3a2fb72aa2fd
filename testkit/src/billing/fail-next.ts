import { errorReply, type BillingErrorCode, type BillingReply } from './billing-reply.js';

const CODES: Readonly<Record<number, BillingErrorCode>> = { 429: 'rate_limited', 500: 'internal_error', 502: 'bad_gateway', 503: 'service_unavailable', 504: 'gateway_timeout' };

/** Scripted failures: the next `count` /v1/* requests answer `status` before any route runs. */
export class FailureQueue {
  #queue: number[] = [];

  add(count: number, status: number): void {
    if (!Number.isSafeInteger(count) || count < 0) throw new Error(`failNext count must be a whole number ≥ 0, got ${count}`);
    if (!Number.isInteger(status) || status < 400 || status > 599) throw new Error(`failNext status must be 400–599, got ${status}`);
    for (let index = 0; index < count; index += 1) this.#queue.push(status);
  }

  take(): BillingReply | null {
    const status = this.#queue.shift();
    if (status === undefined) return null;
    // A retryable status tells the client when to come back, as billing's real 503 and 429 do.
    const headers = status === 503 || status === 429 ? { 'retry-after': '1' } : undefined;
    return errorReply(status, CODES[status] ?? 'simulated_failure', `simulated ${status}`, headers);
  }
}
