import { z } from 'zod';

/** A developer's address as the admin plane and enrollment take it: one @, no whitespace or control characters. */
export const emailAddress = z
  .string()
  .trim()
  .min(3)
  .max(320)
  .regex(/^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u, 'must be an email address');
