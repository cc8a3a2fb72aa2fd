import { z } from 'zod';
import { AppError } from '@gw/platform';

export const errorEnvelope = z.object({ error: z.object({ code: z.string(), message: z.string() }) }).describe('Every non-2xx answer');

/** The evidence service's error codes; every non-2xx answer is `{error: {code, message}}`. */
export const evidenceErrors = {
  invalidRequest: (message: string) => new AppError({ status: 400, code: 'invalid_request', message }),
  invalidReport: (message: string) => new AppError({ status: 400, code: 'invalid_report', message }),
  unauthorized: () => new AppError({ status: 401, code: 'unauthorized', message: 'A valid bearer is required.' }),
  notFound: (what = 'The resource') => new AppError({ status: 404, code: 'not_found', message: `${what} was not found.` }),
  monitorOnly: () => new AppError({ status: 409, code: 'monitor_only', message: 'This host is customer-managed and monitor-only: the gateway runs no script on it.' }),
  bodyTooLarge: (limit: number) => new AppError({ status: 413, code: 'body_too_large', message: `The body is larger than ${limit} bytes.` }),
  unsupportedMediaType: () => new AppError({ status: 415, code: 'unsupported_media_type', message: 'Send application/json.' }),
  unavailable: () => new AppError({ status: 503, code: 'store_unavailable', message: 'The evidence store is unavailable; retry shortly.', retryable: true, headers: { 'retry-after': '1' } }),
  internal: () => new AppError({ status: 500, code: 'internal_error', message: 'The evidence service failed to answer.' }),
} as const;
