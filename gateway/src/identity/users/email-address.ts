import { z } from 'zod';

/** A developer's address as the admin plane and enrollment take it: one @, no whitespace or control characters. */
export const emailAddress = z
  .string()
  .trim()
  .min(3)
  .max(320)
  .regex(/^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u, 'must be an email address');

/**
 * The one form an address is compared and keyed in. Keys, SCIM, seats and directives compare addresses with SQL
 * `lower()`; caps, budgets and usage counters key by this form, so `Dev@Example.com` and `dev@example.com` are one
 * person everywhere.
 */
export function addressKey(address: string): string {
  return address.toLowerCase();
}
