import type { AdmissionCheck } from './admission-input.js';

/** 429 once the key's requests in the sliding minute reach its limit; Retry-After says when one leaves the window. */
export const rateLimitCheck: AdmissionCheck = ({ rate }) => {
  if (!rate || rate.allowed) return null;
  return {
    status: 429,
    code: 'rate_limit_exceeded',
    message: `Rate limit reached: ${rate.limit} requests per minute for this key. Retry after the time in the Retry-After header.`,
    hint: 'Slow down, or ask an administrator to raise requestsPerMinute for this key or user.',
    retryAfterMs: rate.retryAfterMs,
  };
};
