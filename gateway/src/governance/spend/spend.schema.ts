import { z } from 'zod';
import { capStatus } from '../user-caps.schema.js';
import { isUtcDay, maxRangeDays, spendWindows } from './spend-window.js';

const windowParameter = z
  .enum(spendWindows)
  .default('mtd')
  .describe('mtd (current UTC month, default), prev-month, 24h, 7d, 30d, 90d');
const utcDay = z.string().refine(isUtcDay, 'must be a UTC day YYYY-MM-DD');

/** `GET /admin/spend/usage` query: unknown or bad values answer 400 naming the parameter. */
export const usageQuery = z
  .strictObject({
    window: windowParameter,
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(2000)
      .default(200)
      .describe('Users returned, heaviest first (1..2000, default 200); truncated flags the rest'),
    from: utcDay.optional().describe('First UTC day included, YYYY-MM-DD (replaces the window start)'),
    to: utcDay.optional().describe('Last UTC day included, YYYY-MM-DD (replaces the window end)'),
  })
  .superRefine((query, context) => {
    if (query.from && query.to && query.from > query.to)
      context.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    if (query.from && query.to && (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 >= maxRangeDays)
      context.addIssue({ code: 'custom', path: ['from'], message: `the range may span at most ${maxRangeDays} days` });
  });

export const dashboardQuery = z.strictObject({ window: windowParameter });

export const propertyName = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const propertiesQuery = z.strictObject({
  name: z
    .string()
    .regex(propertyName, 'must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$')
    .describe('The custom dimension, sent on requests as header x-gw-property-<name>'),
  window: windowParameter,
});

const period = z.object({ start: z.string(), end: z.string() }).describe('The half-open UTC interval reported');
const tokenTotals = {
  requests: z.int(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  reasoningTokens: z.number(),
  costUsd: z.number(),
  savingsUsd: z.number(),
  tokensSaved: z.number(),
};
const modelSlice = z.object({ model: z.string(), requests: z.int(), totalTokens: z.number(), costUsd: z.number() });
const daySlice = z.object({
  day: z.string().describe('UTC day YYYY-MM-DD'),
  requests: z.int(),
  totalTokens: z.number(),
  costUsd: z.number(),
});

export const userUsage = z.object({
  user: z.string().nullable().describe('The attributed user; null for a service key'),
  keyId: z.string().nullable().describe('The service key, when the spend is a service key’s'),
  team: z.string().nullable(),
  ...tokenTotals,
  rejected: z.int().describe('Requests refused by admission (402, 429)'),
  byModel: z.array(modelSlice),
  byDay: z.array(daySlice),
});

export const capGauge = z.object({
  user: z.string(),
  reset: z.string(),
  monthlyTokens: z.number().nullable(),
  maxUsd: z.number().nullable(),
  softUsd: z.number().nullable(),
  tokensUsed: z.number().nullable(),
  usdUsed: z.number().nullable(),
  tokensPercent: z.number().nullable(),
  usdPercent: z.number().nullable(),
  status: capStatus,
});

export const modelRollup = z.object({ model: z.string(), provider: z.string().nullable(), ...tokenTotals });

export const usageResponse = z.object({
  window: z.enum(spendWindows),
  range: z
    .object({ from: z.string().nullable(), to: z.string().nullable() })
    .nullable()
    .describe('from and to as given; null when neither was'),
  period,
  limit: z.int(),
  truncated: z.boolean().describe('More users had spend than limit'),
  totals: z.object({ ...tokenTotals, users: z.int() }),
  users: z.array(userUsage).describe('Heaviest first (by cost, then tokens)'),
  cappedUsers: z.array(capGauge).describe('Every user with a cap: current-period usage against the cap'),
  models: z.array(modelRollup).describe('Organisation rollup per model'),
});

export const propertiesResponse = z.object({
  name: z.string(),
  window: z.enum(spendWindows),
  period,
  values: z.array(z.object({ value: z.string(), requests: z.int(), totalTokens: z.number(), costUsd: z.number() })),
  truncated: z.boolean(),
});

const countBy = (field: string) =>
  z.array(z.object({ [field]: z.string(), requests: z.int(), totalTokens: z.number(), costUsd: z.number() }));
export const dashboardResponse = z.object({
  window: z.enum(spendWindows),
  period,
  bucket: z.enum(['hour', 'day']),
  totals: z.object({ ...tokenTotals, errors: z.int(), rejected: z.int(), activeUsers: z.int() }),
  series: z.array(
    z.object({ start: z.string(), requests: z.int(), errors: z.int(), totalTokens: z.number(), costUsd: z.number() }),
  ),
  topUsers: countBy('user'),
  topModels: countBy('model'),
  providers: countBy('provider'),
  endpoints: countBy('endpoint'),
  rejections: z.array(z.object({ code: z.string(), count: z.int() })),
  optimization: z.array(z.object({ status: z.string(), count: z.int() })),
});

export const summaryResponse = z.object({
  records: z.int().describe('Records in the in-memory ring (the live view since start, bounded)'),
  since: z.string().nullable(),
  users: z.array(
    z.object({
      user: z.string().nullable(),
      keyId: z.string().nullable(),
      team: z.string().nullable(),
      requests: z.int(),
      totalTokens: z.number(),
      costUsd: z.number(),
    }),
  ),
});
