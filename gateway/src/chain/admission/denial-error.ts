import { AppError } from '@gw/platform';
import type { Denial } from './admission-input.js';

/**
 * A denial as the error the inference envelope renders. 402 (and a guardrail's 400 or 403) is terminal: `x-should-retry: false` stops the official
 * SDKs' automatic retries. 429 carries `Retry-After` (whole seconds, at most 60) and `retry-after-ms`, both of
 * which the SDKs honour.
 */
export function denialError(denial: Denial): AppError {
  if (denial.status === 402 || denial.status === 400 || denial.status === 403)
    return new AppError({
      status: denial.status,
      code: denial.code,
      message: denial.message,
      retryable: false,
      headers: { 'x-should-retry': 'false' },
    });
  if (denial.status === 503)
    return new AppError({
      status: 503,
      code: denial.code,
      message: denial.message,
      retryable: true,
      headers: { 'retry-after': '1' },
    });
  const retryAfterMs = Math.min(Math.max(denial.retryAfterMs ?? 1_000, 1), 60_000);
  return new AppError({
    status: 429,
    code: denial.code,
    message: denial.message,
    retryable: true,
    headers: {
      'retry-after': String(Math.min(Math.max(Math.ceil(retryAfterMs / 1000), 1), 60)),
      'retry-after-ms': String(retryAfterMs),
    },
  });
}
