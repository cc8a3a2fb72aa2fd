import type { z } from 'zod';
import { TranslationError, type TranslationErrorCode } from './translation-error.js';

/**
 * Parses a wire body with its minimal schema. A client body that fails is the client's error (400); an
 * upstream body that fails is the provider's (502). The message names the first offending field.
 */
export function parseWire<T extends z.ZodType>(
  schema: T,
  value: unknown,
  code: Extract<TranslationErrorCode, 'invalid_request' | 'invalid_upstream_response'>,
  what: string,
): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
  throw new TranslationError(code, `${what} is not valid${path}: ${issue?.message ?? 'invalid input'}`);
}

/** `JSON.parse` that answers undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
