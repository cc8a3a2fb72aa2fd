import { z } from 'zod';
import {
  ageColumn,
  baseStatusShape,
  gatewayColumn,
  gatewayRef,
  immutable,
  readyColumn,
  reasonColumn,
  secretKeyRef,
  tokenCount,
  usdAmount,
  withRules,
  type CrdDefinition,
} from './common.js';
import { capResets } from '../management/common.js';

/**
 * UserCap: one per-user cap entry, applied with
 * `PATCH /admin/v1/users/{user}/limits` and cleared on delete. Current usage stays in the gateway.
 */

const alerts = z
  .object({
    thresholdsPercent: z
      .array(z.int().min(1).max(100))
      .min(1)
      .max(5)
      .describe('Percent of the cap at which an alert is sent, for example [80, 100].'),
    webhookSecretRef: secretKeyRef.describe('Secret key holding the Slack-compatible webhook URL (never returned).'),
  })
  .strict()
  .describe('Cap-approach alerts.');

export const userCapSpec = withRules(
  z
    .object({
      gatewayRef,
      user: immutable(
        z
          .string()
          .min(1)
          .max(254)
          .regex(/^[^\s/]+$/),
        'user',
      ).describe('The user the cap applies to, as the gateway attributes spend (usually an email).'),
      monthlyTokens: tokenCount.optional().describe('Token cap; absent means no token cap.'),
      maxUsd: usdAmount.optional().describe('USD budget; absent means no budget.'),
      softUsd: usdAmount.optional().describe('Soft USD threshold, at most maxUsd.'),
      reset: z.enum(capResets).default('monthly').describe('Reset cadence.'),
      alerts: alerts.optional(),
    })
    .strict(),
  [
    {
      rule: 'has(self.monthlyTokens) || has(self.maxUsd) || has(self.softUsd)',
      message: 'set at least one of monthlyTokens, maxUsd or softUsd',
    },
    {
      rule: '!has(self.softUsd) || !has(self.maxUsd) || double(self.softUsd) <= double(self.maxUsd)',
      message: 'softUsd must not exceed maxUsd',
      fieldPath: '.softUsd',
    },
  ],
);

export const userCapStatus = z.object(baseStatusShape).strict();

export type UserCapSpec = z.infer<typeof userCapSpec>;
export type UserCapStatus = z.infer<typeof userCapStatus>;

export const userCapCrd: CrdDefinition<typeof userCapSpec, typeof userCapStatus> = {
  kind: 'UserCap',
  plural: 'usercaps',
  singular: 'usercap',
  shortNames: ['gwuc'],
  description: 'A per-user monthly token cap and USD budget on a Gateway.',
  spec: userCapSpec,
  status: userCapStatus,
  printerColumns: [
    gatewayColumn,
    { name: 'User', type: 'string', jsonPath: '.spec.user' },
    { name: 'Tokens', type: 'integer', jsonPath: '.spec.monthlyTokens' },
    { name: 'Max USD', type: 'string', jsonPath: '.spec.maxUsd' },
    readyColumn,
    reasonColumn,
    ageColumn,
  ],
};
