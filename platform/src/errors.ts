/**
 * Errors are values with stable codes. Each surface maps them to its wire envelope in one error handler; a
 * provider failure says whether it is retryable so routing can decide.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryable: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(options: { status: number; code: string; message: string; retryable?: boolean; headers?: Record<string, string>; details?: Record<string, unknown>; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = options.status;
    this.code = options.code;
    this.retryable = options.retryable ?? false;
    this.headers = options.headers ?? {};
    this.details = options.details;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/**
 * Recursive walks over a request (translators, `JSON.stringify` of a rewritten body, token estimates) run out of
 * stack on JSON nested a few thousand levels deep, which `JSON.parse` accepts. That is the caller's input, not a
 * server fault: this turns the overflow into a 400 so no surface answers it with a 500. Checking the depth of every
 * body up front would cost a walk of every request to catch what almost none send.
 */
export function asRequestError(error: unknown): unknown {
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return new AppError({ status: 400, code: 'invalid_request', message: 'The request body is nested too deeply to process.' });
  }
  return error;
}
