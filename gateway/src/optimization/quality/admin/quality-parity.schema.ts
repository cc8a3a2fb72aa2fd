import { z } from 'zod';
import { spendWindows } from '../../../governance/spend/spend-window.js';

/** Strategy ids are snake_case words (`elide_tool_output`); the pattern only keeps junk out of the query. */
export const strategyIdPattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** `GET /admin/spend/quality-parity` query: unknown or bad values answer 400 naming the parameter. */
export const qualityParityQuery = z.strictObject({
  window: z.enum(spendWindows).default('7d').describe('mtd, prev-month, 24h, 7d (default), 30d, 90d'),
  cohortKind: z
    .string()
    .regex(strategyIdPattern, 'must be a strategy id matching ^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$')
    .optional()
    .describe('A strategy id selects that per-strategy control arm; omitted reads the whole-optimizer arm'),
});

const nullableNumber = z.number().nullable();

const proxy = z.object({
  direction: z
    .enum(['higher_is_worse', 'two_sided', 'display_only'])
    .describe('Which change is damaging; display_only never drives a verdict'),
  holdout: nullableNumber.describe('Holdout (control) arm mean'),
  treated: nullableNumber.describe('Treated arm mean'),
  delta: nullableNumber.describe('treated − holdout'),
  deltaCiLow: nullableNumber.describe('95% interval of the delta, low end'),
  deltaCiHigh: nullableNumber.describe('95% interval of the delta, high end'),
  relativeDelta: nullableNumber.describe('treated / holdout − 1'),
  relativeCiLow: nullableNumber.describe('95% interval of the relative delta, low end (log-ratio delta method)'),
  relativeCiHigh: nullableNumber.describe('95% interval of the relative delta, high end'),
  verdict: z.enum(['parity', 'regression', 'insufficient', 'display_only']),
});

const armCounts = z.object({
  sessions: z.int().describe('Observed sessions (gateway session id) in the arm'),
  requests: z.int().describe('Metered calls of those sessions, admission rejections excluded'),
});

export const qualityParityVerdicts = ['parity', 'regression', 'insufficient', 'imbalanced', 'holdout_off'] as const;

export const qualityParityResponse = z.object({
  window: z.enum(spendWindows),
  period: z.object({ start: z.string(), end: z.string() }).describe('The half-open UTC interval reported'),
  cohortKind: z.string().nullable().describe('The per-strategy arm compared; null for the whole-optimizer arm'),
  verdict: z.enum(qualityParityVerdicts).describe('the contract verdict over turns, output tokens and error rate'),
  arms: z.object({ holdout: armCounts, treated: armCounts }),
  sampleRatio: z
    .object({
      expectedHoldoutShare: nullableNumber.describe(
        "Holdout share the optimizer's holdout config implies; null when unknown",
      ),
      observedHoldoutShare: nullableNumber,
      chiSquare: nullableNumber,
      pValue: nullableNumber.describe('Chi-square (1 df) p-value; null when not tested'),
      mismatch: z.boolean().describe('p below 0.001: the verdict is imbalanced'),
    })
    .describe('Sample-ratio mismatch test of the session counts'),
  proxies: z.object({
    turnsPerSession: proxy.describe('Headline: metered calls per session'),
    outputTokensPerRequest: proxy.describe('Completion tokens per successful call (two-sided)'),
    errorRate: proxy.describe('Failed calls per call (one-sided)'),
    latencyMs: proxy.describe('Latency per successful call, milliseconds (display only)'),
  }),
  grossCostObjective: z.object({
    verdict: z.enum(['target_met', 'target_not_proven', 'insufficient', 'holdout_off']),
    holdoutCostPerSession: nullableNumber.describe('List-price USD per observed holdout session'),
    treatedCostPerSession: nullableNumber.describe('List-price USD per observed treated session'),
    reductionPoint: nullableNumber.describe('1 − treated / holdout'),
    reductionCiLow: nullableNumber.describe(
      '95% interval of the reduction, low end; target_met needs it at or above the objective',
    ),
    reductionCiHigh: nullableNumber,
    objective: z.number().describe('0.30'),
  }),
  thresholds: z.object({
    confidence: z.number(),
    minimumSessionsPerArm: z.int(),
    regressionDelta: z.number(),
    sampleRatioAlpha: z.number(),
  }),
});
export type QualityParityResponse = z.infer<typeof qualityParityResponse>;
