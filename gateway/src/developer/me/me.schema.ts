import { z } from 'zod';
import { capResets } from '@gw/contracts/management';
import { capStatus } from '../../governance/user-caps.schema.js';

export const meUsageResponse = z.object({
  subject: z
    .object({ kind: z.enum(['user', 'service-key']), id: z.string() })
    .describe('Whose usage: the key’s user, or the service key itself'),
  period: z.object({ month: z.string().describe('YYYY-MM (UTC)'), start: z.string(), end: z.string() }),
  requests: z.int().describe('Successful metered requests this month'),
  tokens: z.number(),
  costUsd: z.number(),
  savingsUsd: z.number().describe('Optimizer savings this month'),
  tokensSaved: z.number(),
  source: z
    .enum(['counters', 'store'])
    .describe('counters: live; store: read from gw_spend because the counters were unreachable'),
});

export const meLimitsResponse = z.object({
  userCap: z
    .object({
      monthlyTokens: z.number().nullable(),
      maxUsd: z.number().nullable(),
      softUsd: z.number().nullable(),
      reset: z.enum(capResets),
      strict: z.boolean(),
      periodStart: z.string(),
      resetsAt: z.string().nullable(),
      tokensUsed: z.number().nullable(),
      usdUsed: z.number().nullable(),
      status: capStatus,
    })
    .nullable()
    .describe('The per-user cap that answers 402 user_token_cap_exceeded or user_budget_exceeded; null when none'),
  serviceKeyBudget: z
    .object({
      monthlyBudgetUsd: z.number(),
      usedUsd: z.number().nullable(),
      remainingUsd: z.number().nullable(),
      resetsAt: z.string(),
      strict: z.boolean(),
      status: z.enum(['under', 'over', 'unknown']),
    })
    .nullable()
    .describe('The service key budget that answers 402 service_key_budget_exceeded; null when unlimited'),
  rateLimits: z
    .object({ requestsPerMinute: z.number().nullable(), concurrentRequests: z.number().nullable() })
    .describe('Limits that answer 429; null = unlimited'),
});
