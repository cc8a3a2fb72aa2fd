import { errorReply, type BillingErrorCode, type BillingReply } from './billing-reply.js';

const CODES: Readonly<Record<number, BillingErrorCode>> = {
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

interface ScriptedFailure {
  status: number;
  /** Only a request to this exact path takes the failure; without it, any /v1/* request does. */
  path?: string;
}

/**
 * Scripted failures: the next `count` /v1/* requests (or the next to `path`) answer `status` before any route runs.
 * A path keeps a background request of the client under test (a meter report on its timer) from taking a failure a
 * test meant for another route.
 */
export class FailureQueue {
  #queue: ScriptedFailure[] = [];

  add(count: number, status: number, path?: string): void {
    if (!Number.isSafeInteger(count) || count < 0)
      throw new Error(`failNext count must be a whole number ≥ 0, got ${count}`);
    if (!Number.isInteger(status) || status < 400 || status > 599)
      throw new Error(`failNext status must be 400–599, got ${status}`);
    if (path !== undefined && !path.startsWith('/v1/'))
      throw new Error(`failNext path must be a /v1/ path, got ${path}`);
    for (let index = 0; index < count; index += 1) this.#queue.push(path === undefined ? { status } : { status, path });
  }

  take(path: string): BillingReply | null {
    const index = this.#queue.findIndex((failure) => failure.path === undefined || failure.path === path);
    if (index < 0) return null;
    const [{ status }] = this.#queue.splice(index, 1) as [ScriptedFailure];
    // A retryable status tells the client when to come back, as billing's real 503 and 429 do.
    const headers = status === 503 || status === 429 ? { 'retry-after': '1' } : undefined;
    return errorReply(status, CODES[status] ?? 'simulated_failure', `simulated ${status}`, headers);
  }
}
