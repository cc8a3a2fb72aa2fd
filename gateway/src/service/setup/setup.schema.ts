import { z } from 'zod';

export const setupStepIds = [
  'admin-sign-in',
  'provider-key',
  'routing-default',
  'identity-provider',
  'enrollment-link',
] as const;
export type SetupStepId = (typeof setupStepIds)[number];

export const setupStep = z.object({
  id: z.enum(setupStepIds),
  title: z.string(),
  state: z
    .enum(['done', 'skipped', 'pending'])
    .describe('done: the store holds what the step sets up; skipped: an administrator chose to skip it; else pending'),
  detail: z.string().describe('What the step found, content-free'),
  action: z.object({ method: z.string(), path: z.string() }).describe('The Management API call that completes it'),
  skippedBy: z.string().nullable(),
  skippedAt: z.string().nullable(),
});

export const setupState = z.object({
  complete: z.boolean().describe('Every step is done or skipped'),
  next: z.enum(setupStepIds).nullable().describe('The first pending step, where a console or the CLI resumes'),
  steps: z.array(setupStep),
});
export type SetupState = z.infer<typeof setupState>;

/** `PUT /admin/v1/settings/setup` and `/admin/wizard-step`: skip a step, or take the skip back. Idempotent. */
export const setupStepBody = z.strictObject({
  step: z.enum(setupStepIds),
  skipped: z.boolean().describe('true skips the step; false takes a skip back (the step is pending again unless done)'),
});
