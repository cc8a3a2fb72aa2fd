import type { ErrorSpec } from '../core/behaviour.js';

// Error type and message per status, as the Messages API names them.
const DEFAULTS: Record<number, { type: string; message: string }> = {
  400: { type: 'invalid_request_error', message: 'Invalid request.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  402: { type: 'billing_error', message: 'Your credit balance is too low to access the Anthropic API.' },
  403: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' },
  404: { type: 'not_found_error', message: 'Not Found' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
  429: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit.' },
  500: { type: 'api_error', message: 'Internal server error' },
  504: { type: 'timeout_error', message: 'Request timed out' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

function errorFields(status: number, spec: ErrorSpec | undefined): { type: string; message: string } {
  const base = DEFAULTS[status] ??
    (status >= 500 ? DEFAULTS[500] : DEFAULTS[400]) ?? { type: 'api_error', message: 'Error' };
  return { type: spec?.type ?? base.type, message: spec?.message ?? base.message };
}

/** `{type: "error", error: {type, message}, request_id}`; `request_id` repeats the `request-id` header. */
export function renderAnthropicError(status: number, spec: ErrorSpec | undefined, requestId: string): string {
  return JSON.stringify({ type: 'error', error: errorFields(status, spec), request_id: requestId });
}

/** The stream's `error` event; overloaded is what the real API sends mid-stream most often. */
export function renderAnthropicStreamError(spec: ErrorSpec): string {
  const error = { type: spec.type ?? 'overloaded_error', message: spec.message ?? 'Overloaded' };
  return `event: error\ndata: ${JSON.stringify({ type: 'error', error })}\n\n`;
}
