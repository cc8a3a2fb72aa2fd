import { z } from 'zod';

export const auditOutcome = z.enum(['success', 'failure']);

/** One audit entry as the feed returns it: who did what to which target, and how it ended. */
export const auditEvent = z.object({
  id: z.string(),
  at: z.string().describe('When, RFC 3339 UTC'),
  category: z.string().describe('Resource lane (keys, admin-keys, settings, users, …) or auth for rejections'),
  action: z.string().describe('Operation id of an admin write, or the reason code of an auth rejection'),
  actor: z.string().describe('admin-token, apikey:<id> or sso:<email>'),
  target: z.string().nullable(),
  subject: z.string().nullable().describe('The developer the entry is about, when there is one'),
  requestId: z.string().nullable(),
  outcome: auditOutcome,
  status: z.number().int().nullable().describe('HTTP status the operation answered'),
  details: z.record(z.string(), z.unknown()).describe('Content-free extras (counts, hints); never bodies'),
});
export type AuditEvent = z.infer<typeof auditEvent>;

export const auditCategoryPattern = /^[a-z][a-z0-9-]{0,63}$/;

export const auditEventsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50).describe('Page size, 1..500 (default 50)'),
  cursor: z.string().min(1).max(512).optional().describe('next_cursor of the previous page'),
  category: z.string().regex(auditCategoryPattern).optional().describe('Only this category'),
});

export const auditEventsPage = z.object({
  data: z.array(auditEvent),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
});

/** Reason-coded auth and cap rejections with remediation hints (`/admin/auth-events`). */
export const authEvent = z.object({
  id: z.string(),
  at: z.string(),
  code: z.string().describe('Reason code, e.g. key_revoked, user_deactivated, user_budget_exceeded'),
  user: z.string().nullable(),
  keyId: z.string().nullable(),
  endpoint: z.string().nullable(),
  status: z.number().int().nullable(),
  hint: z.string().nullable().describe('What the developer or an administrator can do about it'),
});
export type AuthEvent = z.infer<typeof authEvent>;

export const authEventsQuery = z.object({
  user: z.string().min(1).max(320).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const authEventsResponse = z.object({ events: z.array(authEvent) });
