import type { ErrorSpec } from '../core/behaviour.js';

/** OpenAI's error envelope: `{error: {message, type, param, code}}`. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | number | null };
}

// Defaults per status, worded as the real API words them.
const DEFAULTS: Record<number, OpenAiErrorBody['error']> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error', param: null, code: null },
  401: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
  403: {
    message: 'You are not allowed to sample from this model',
    type: 'invalid_request_error',
    param: null,
    code: null,
  },
  404: {
    message: 'The model does not exist or you do not have access to it.',
    type: 'invalid_request_error',
    param: null,
    code: 'model_not_found',
  },
  429: {
    message: 'Rate limit reached for requests per min (RPM). Please try again later.',
    type: 'requests',
    param: null,
    code: 'rate_limit_exceeded',
  },
  500: {
    message: 'The server had an error while processing your request. Sorry about that!',
    type: 'server_error',
    param: null,
    code: null,
  },
  502: { message: 'Bad gateway.', type: 'cf_bad_gateway', param: null, code: 502 },
  503: {
    message: 'The engine is currently overloaded, please try again later.',
    type: 'server_error',
    param: null,
    code: null,
  },
  504: { message: 'Gateway timeout.', type: 'cf_gateway_timeout', param: null, code: 504 },
};

export function openAiError(status: number, spec?: ErrorSpec): OpenAiErrorBody {
  const fallback = DEFAULTS[status] ?? (status >= 500 ? DEFAULTS[500] : DEFAULTS[400]);
  const base = fallback ?? { message: 'Error', type: 'invalid_request_error', param: null, code: null };
  return {
    error: {
      message: spec?.message ?? base.message,
      type: spec?.type ?? base.type,
      param: spec?.param === undefined ? base.param : spec.param,
      code: spec?.code === undefined ? base.code : spec.code,
    },
  };
}

export function renderOpenAiError(status: number, spec?: ErrorSpec): string {
  return JSON.stringify(openAiError(status, spec));
}

export const MISSING_KEY_MESSAGE =
  "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth " +
  "(i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API " +
  'from your browser and are prompted for a username. You can obtain an API key from https://platform.openai.com/account/api-keys.';

/** Masks a key the way the real API echoes it back (`sk-abc***wxyz`). */
export function maskKey(key: string): string {
  return key.length <= 8 ? '***' : `${key.slice(0, 3)}***${key.slice(-4)}`;
}
