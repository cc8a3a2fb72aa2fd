import type { AdmissionCheck } from './admission-input.js';

/** 429 when every concurrency slot of the key is held by a request in flight. */
export const concurrencyLimitCheck: AdmissionCheck = ({ concurrency }) => {
  if (!concurrency || concurrency.acquired) return null;
  return {
    status: 429,
    code: 'concurrency_limit_exceeded',
    message: `Concurrency limit reached: at most ${concurrency.limit} requests in flight for this key. Retry when one finishes.`,
    hint: 'Send fewer requests at once, or ask an administrator to raise concurrentRequests for this key or user.',
    retryAfterMs: concurrency.retryAfterMs,
  };
};
