import { z } from 'zod';
import { capResets } from './common.js';

// A per-user cap entry. Money is dollars; 0 is a real limit (blocks everything), null clears.
const money = z.number().min(0).max(1_000_000_000);
export const capUserName = z
  .string()
  .trim()
  .min(1)
  .max(320)
  .regex(/^[^\s/]+$/, 'must be a user identifier without spaces or slashes');
export const thresholdsPercent = z
  .array(z.int().min(1).max(100))
  .min(1)
  .max(5)
  .describe('Percent of the token cap and of the USD budget at which an alert is sent, e.g. [80, 100]');
export const webhookUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .describe('Slack-compatible incoming-webhook URL; write-only, never returned');

export const capAlertsInput = z
  .strictObject({
    thresholdsPercent: thresholdsPercent.optional(),
    webhookUrl: webhookUrl.optional().describe('Omit to keep the stored URL'),
  })
  .describe('Cap-approach alerts; sent once per threshold per period');

const capFields = {
  monthlyTokens: z
    .int()
    .min(0)
    .max(1e15)
    .nullable()
    .describe('Token cap per period (named for the default monthly cadence); null clears'),
  maxUsd: money
    .nullable()
    .describe('USD budget per period; at or over it requests answer 402 user_budget_exceeded; null clears'),
  softUsd: money.nullable().describe('Soft USD threshold: an alert and status "soft", never a rejection; null clears'),
  reset: z
    .enum(capResets)
    .describe('Reset cadence; periods are UTC days, ISO weeks (from Monday), calendar months, or never'),
  strict: z
    .boolean()
    .describe(
      'Reserve an estimate (prompt tokens + max_tokens at the model price) before each call so concurrent requests cannot overshoot; default false (the spec soft semantics)',
    ),
  alerts: capAlertsInput.nullable().describe('Per-user alert settings overriding the map-wide ones; null clears'),
};

/** One entry of `PUT /admin/user-caps`: omitted fields take their defaults (no cap, monthly, soft). */
export const capEntryBody = z.strictObject({
  monthlyTokens: capFields.monthlyTokens.optional(),
  maxUsd: capFields.maxUsd.optional(),
  softUsd: capFields.softUsd.optional(),
  reset: capFields.reset.optional(),
  strict: capFields.strict.optional(),
  alerts: capFields.alerts.optional(),
});
export type CapEntryInput = z.infer<typeof capEntryBody>;

const expectedRevision = z
  .unknown()
  .optional()
  .describe('Revision the caller last read; a stale value answers 409 and changes nothing');

/** `PATCH /admin/user-caps/:user`: omitted kept, null clears, a value replaces; unknown fields 400. */
export const capPatchBody = capEntryBody.extend({ expectedRevision });
export type CapPatch = z.infer<typeof capPatchBody>;

/** `PUT /admin/user-caps`: the whole map plus the map-wide alert settings. */
export const capsPutBody = z.strictObject({
  caps: z
    .record(capUserName, capEntryBody)
    .describe('Every cap entry, keyed by user; users absent here lose their entry'),
  alerts: capAlertsInput.nullable().optional().describe('Map-wide alert settings; omitted kept, null clears'),
  expectedRevision,
});
export type CapsPut = z.infer<typeof capsPutBody>;

export const alertPosture = z.object({
  thresholdsPercent: z.array(z.int()),
  webhookConfigured: z.boolean().describe('Whether a webhook URL is stored (the URL itself is never returned)'),
});

export const capStatus = z
  .enum(['under', 'soft', 'over', 'unknown'])
  .describe('over: requests answer 402; soft: past softUsd; unknown: counters unavailable');

export const capView = z.object({
  user: z.string(),
  monthlyTokens: z.number().nullable(),
  maxUsd: z.number().nullable(),
  softUsd: z.number().nullable(),
  reset: z.enum(capResets),
  strict: z.boolean(),
  alerts: alertPosture.nullable().describe('Per-user alert settings; null means the map-wide settings apply'),
  revision: z.int().describe('Send as expectedRevision on PATCH'),
  updatedAt: z.string(),
  updatedBy: z.string(),
  periodStart: z.string().describe('Start of the current counting period (UTC)'),
  resetsAt: z.string().nullable().describe('When usage resets; null for reset "never"'),
  usage: z.number().nullable().describe('Tokens used in the current period; null when counters are unavailable'),
  budgetUsage: z.number().nullable().describe('USD spent in the current period; null when counters are unavailable'),
  status: capStatus,
});
export type CapView = z.infer<typeof capView>;

export const capsResponse = z.object({
  caps: z.record(z.string(), capView),
  usage: z.record(z.string(), z.number()).describe('Tokens used per capped user in the current period'),
  budgetUsage: z.record(z.string(), z.number()).describe('USD spent per capped user in the current period'),
  alerts: alertPosture.describe('Map-wide cap-alert posture'),
  revision: z.int().describe('Map revision; send as expectedRevision on PUT'),
  updatedAt: z.string().nullable(),
});
export type CapsResponse = z.infer<typeof capsResponse>;

export const capUserParams = z.object({ user: capUserName });
