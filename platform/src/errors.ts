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

  constructor(options: {
    status: number;
    code: string;
    message: string;
    retryable?: boolean;
    headers?: Record<string, string>;
    details?: Record<string, unknown>;
    cause?: unknown;
  }) {
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
