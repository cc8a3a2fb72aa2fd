import { z } from 'zod';

/** The contract: a grep is at most 256 characters and never whitespace-only. */
export const grepMaxChars = 256;
export const handleMaxChars = 256;
export const recallQueryMaxChars = 4096;
export const recallMaxK = 20;

export const grepSchema = z
  .string()
  .max(grepMaxChars, `grep must be at most ${grepMaxChars} characters`)
  .refine((value) => value.trim() !== '', 'grep must contain a non-whitespace character')
  .describe(
    'Case-insensitive literal (not a regex), whitespace-significant, at most 256 characters; ±3 lines of context; searched within the range.',
  );

/** 1-based inclusive line; rounded and clamped by the optimizer, never an error. */
export const lineSchema = z.number().finite();

export const handleSchema = z
  .string()
  .trim()
  .min(1, 'handle is required')
  .max(handleMaxChars)
  .describe('A `ctx_` handle left in an optimized request.');

export const recallQuerySchema = z
  .string()
  .max(recallQueryMaxChars)
  .describe('What to look for, in words or identifiers.');

export interface RetrieveArguments {
  handle: string;
  startLine?: number | undefined;
  endLine?: number | undefined;
  grep?: string | undefined;
}

/** True when the call asks for a slice (range or grep), which a version-skewed optimizer cannot serve. */
export function isSliceRequest(request: RetrieveArguments): boolean {
  return request.startLine !== undefined || request.endLine !== undefined || request.grep !== undefined;
}
