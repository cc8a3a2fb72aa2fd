import type { AppError } from '@gw/platform';
import { gatewayError, type GatewayErrorKey } from '../../errors.js';
import type { Denial } from './admission-input.js';

/** The catalog entry of a denial: its code, except a guardrail's 400, the second status of `guardrail_denied`. */
function catalogKeyOf(denial: Denial): GatewayErrorKey {
  return denial.status === 400 && denial.code === 'guardrail_denied' ? 'guardrail_refused_request' : denial.code;
}

/**
 * A denial as the error the inference envelope renders. 402 (and a guardrail's 400 or 403) is terminal: `x-should-retry: false` stops the official
 * SDKs' automatic retries. 429 carries `Retry-After` (whole seconds, at most 60) and `retry-after-ms`, both of
 * which the SDKs honour.
 */
export function denialError(denial: Denial): AppError {
  const key = catalogKeyOf(denial);
  if (denial.status === 402 || denial.status === 400 || denial.status === 403)
    return gatewayError(key, denial.message, { retryable: false, headers: { 'x-should-retry': 'false' } });
  if (denial.status === 503)
    return gatewayError(key, denial.message, { retryable: true, headers: { 'retry-after': '1' } });
  const retryAfterMs = Math.min(Math.max(denial.retryAfterMs ?? 1_000, 1), 60_000);
  return gatewayError(key, denial.message, {
    retryable: true,
    headers: {
      'retry-after': String(Math.min(Math.max(Math.ceil(retryAfterMs / 1000), 1), 60)),
      'retry-after-ms': String(retryAfterMs),
    },
  });
}
