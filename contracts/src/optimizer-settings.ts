import { z } from 'zod';
import { optimizerFeaturesSchema } from './optimizer-protocol.js';

/**
 * Optimizer Protocol v1, the admin and health side: the runtime settings the optimizer takes and reports (with its
 * live telemetry), the durable bootstrap the gateway pushes, and the health report.
 */
const rfc3339Instant = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

export const strategyToggleSchema = z
  .object({
    kind: z.string().min(1).describe('Strategy kind the switch applies to.'),
    enabled: z.boolean().describe('False turns the strategy off where the scope matches.'),
    endpoint: z.string().optional().describe('Only requests to this endpoint.'),
    model: z.string().optional().describe('Only requests for this model.'),
    user: z.string().optional().describe('Only this user.'),
    team: z.string().optional().describe('Only this team.'),
  })
  .describe('Kill switch: the most specific matching entry wins; on a tie the later entry wins.');
export type StrategyToggle = z.infer<typeof strategyToggleSchema>;

/** Regression-guard thresholds; every field is optional and defaults to the spec's value. */
export const guardThresholdsSchema = z
  .strictObject({
    windowMinutes: z
      .number()
      .int()
      .min(1)
      .max(1_440)
      .optional()
      .describe('Rolling window length in minutes (default 30).'),
    buckets: z
      .number()
      .int()
      .min(1)
      .max(1_440)
      .optional()
      .describe('Buckets the rolling window is counted in (default 30).'),
    minFired: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        'Fires in the window needed to open on the regret rate; also the decayed trials the score needs (default 50).',
      ),
    minRegrets: z.number().int().min(1).optional().describe('Regrets needed by every opening test (default 10).'),
    regretRate: z
      .number()
      .gt(0)
      .max(1)
      .optional()
      .describe('Regret rate at or above which a lane opens (default 0.2).'),
    lowTrafficMinFired: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Fewest fires for the low-traffic binomial test, which covers up to minFired − 1 (default 20).'),
    lowTrafficPValue: z
      .number()
      .gt(0)
      .lt(1)
      .optional()
      .describe(
        'One-sided binomial p-value at the regret rate at or below which the low-traffic test opens (default 0.01).',
      ),
    scoreThreshold: z
      .number()
      .positive()
      .optional()
      .describe('Decayed excess regrets (regrets − rate × fires) at which the accumulated score opens (default 6).'),
    scoreHalfLifeMinutes: z
      .number()
      .positive()
      .max(10_080)
      .optional()
      .describe('Half-life of the accumulated score across windows (default 60).'),
    coolOffMinutes: z
      .number()
      .positive()
      .max(1_440)
      .optional()
      .describe('Open → half-open after this long; doubles on consecutive relapses (default 10).'),
    coolOffMaxMultiplier: z
      .number()
      .min(1)
      .max(64)
      .optional()
      .describe(
        'Cap of the doubling cool-off as a multiple of coolOffMinutes; never past the rolling window (default 4).',
      ),
    probeOneIn: z
      .number()
      .int()
      .min(1)
      .max(1_000)
      .optional()
      .describe('Half-open: one in this many eligible requests probes the strategy (default 10).'),
    restoreProbes: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Clean probe fires over one probe-cohort rotation that close the lane (default 20).'),
    probeRotationMinutes: z
      .number()
      .positive()
      .max(1_440)
      .optional()
      .describe('One full rotation through the probe cohorts (default 10).'),
    relapseMinRegrets: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Probe regrets, at or above the regret rate, that confirm a relapse (default 2).'),
    quietCloseMinutes: z
      .number()
      .positive()
      .max(10_080)
      .optional()
      .describe('A half-open lane too quiet for restoreProbes closes after this long entirely clean (default 60).'),
  })
  .describe('Regression-guard thresholds; omitted fields keep the spec defaults.');
export type GuardThresholdsConfig = z.infer<typeof guardThresholdsSchema>;

export const optimizerConfigSchema = z
  .strictObject({
    strategies: z.array(strategyToggleSchema).optional(),
    guard: z
      .strictObject({
        enabled: z.boolean().describe('False: the guard keeps counting but never suppresses a strategy.'),
        thresholds: guardThresholdsSchema.optional(),
      })
      .optional()
      .describe('Regression guard: per tenant and strategy, suppresses a strategy the model keeps undoing.'),
    holdout: z
      .object({
        enabled: z.boolean(),
        fraction: z.number().min(0).max(1).describe('Share of sessions assigned to the control arm.'),
        windowSeconds: z
          .number()
          .int()
          .positive()
          .describe(
            'Assignment window; a session keeps its arm within one window (the window index is part of the hash).',
          ),
        kinds: z
          .array(z.string())
          .optional()
          .describe(
            'Per-strategy arms: each control session withholds exactly one of these kinds. Read-only strategies (census, cache lint, shadow) and unknown kinds answer 400.',
          ),
      })
      .optional(),
    requireReversibleElision: z
      .boolean()
      .nullable()
      .optional()
      .describe(
        'true: skip degradable strategies on every no-retrieve lane; false: in-place trim on api-key lanes; unset: follow the lane.',
      ),
    rollouts: z
      .object({
        agentContinuationV1ActivateAt: z
          .string()
          .regex(rfc3339Instant, 'must be an RFC 3339 instant with Z or a numeric offset')
          .nullable()
          .optional()
          .describe('Activation instant; at least 60 s ahead when first set, normalized to UTC, immutable afterwards.'),
      })
      .optional(),
    cache: z
      .object({
        enabled: z.boolean().describe('Semantic cache lookups and writes.'),
        ttlSeconds: z.number().int().min(1).max(86_400).describe('cacheTtlSeconds suggested on optimize.'),
      })
      .optional(),
  })
  .describe('Optimizer runtime configuration.');
export type OptimizerConfig = z.infer<typeof optimizerConfigSchema>;

/** PUT accepts the bare config or `{config}`. */
export const settingsPutBodySchema = z.union([
  z.strictObject({ config: optimizerConfigSchema }),
  optimizerConfigSchema,
]);

export const guardStateSchema = z
  .enum(['closed', 'open', 'half_open'])
  .describe('closed: running; open: suppressed; half_open: about one in ten eligible requests probe it.');

export const guardLaneTelemetrySchema = z.looseObject({
  tenant: z.string().optional().describe('Tenant of the lane (the guard is per tenant and per strategy).'),
  kind: z.string().describe('Strategy kind.'),
  state: guardStateSchema,
  regretRate: z
    .number()
    .describe('closed: regrets / fires in the rolling window; open: the rate that opened it; half_open: among probes.'),
  fired: z
    .number()
    .int()
    .optional()
    .describe('Fires counted in the rolling window (closed) or probe fires this rotation (half_open).'),
  regrets: z.number().int().optional().describe('Regrets counted alongside `fired`.'),
  reason: z
    .enum(['window', 'low_traffic', 'score', 'relapse'])
    .nullable()
    .optional()
    .describe('Which test opened the lane last.'),
  reopensAt: z.string().nullable().optional().describe('When an open lane turns half-open.'),
  relapses: z
    .number()
    .int()
    .optional()
    .describe('Consecutive relapses; doubles the cool-off, reset on the first clean recovery.'),
});

export const settingsResponseSchema = z.looseObject({
  config: optimizerConfigSchema,
  guard: z
    .looseObject({
      enabled: z.boolean(),
      thresholds: guardThresholdsSchema.optional().describe('Thresholds in force, defaults filled in.'),
      strategies: z.array(guardLaneTelemetrySchema),
    })
    .describe('Per-replica regression-guard lanes.'),
  census: z.looseObject({
    requests: z.number().int(),
    toolOutputTokens: z.number().int(),
    classes: z.record(z.string(), z.looseObject({ decisions: z.number().int(), tokensSaved: z.number() })),
  }),
  cacheLint: z
    .looseObject({
      windowSeconds: z.number().int().describe('The rolling window (per replica).'),
      turnsCompared: z
        .number()
        .int()
        .describe("Turns compared with their session's previous turn while the provider cache was still warm."),
      regions: z.array(
        z.object({
          region: z
            .enum(['model', 'tools', 'system', 'tool_choice', 'history'])
            .describe('The first part of the prompt that stopped repeating the previous turn.'),
          busts: z.number().int(),
          sessions: z.number().int(),
          estimatedTokensRewritten: z
            .number()
            .int()
            .describe('Prompt tokens the provider wrote again (about four characters a token).'),
          lastSeenAt: z.string(),
          hint: z.string(),
        }),
      ),
    })
    .describe(
      "Which part of clients' prompts busts the provider's prompt cache, most tokens rewritten first. Digests only, never content.",
    ),
  holdout: z
    .looseObject({
      enabled: z.boolean(),
      arms: z.looseObject({
        holdout: z.number().int().describe('Optimize requests answered on the control arm.'),
        treated: z.number().int().describe('Optimize requests answered on the treated arm.'),
        kinds: z
          .record(z.string(), z.number().int())
          .optional()
          .describe('Per-strategy control rows by withheld kind.'),
      }),
      windowSeconds: z.number().int().optional().describe('The rolling window the arm counts cover.'),
      scope: z.literal('replica'),
      authoritativeSource: z.string(),
    })
    .describe('Per-replica arm counts; conclusions come from the gateway (authoritativeSource).'),
  semanticCacheShadow: z
    .looseObject({
      lookups: z.number().int(),
      hits: z.number().int(),
      strictPrecision: z
        .number()
        .nullable()
        .describe(
          'Share of compared exact hits whose stored answer equalled the live one; null before any comparison.',
        ),
      durable: z
        .boolean()
        .describe(
          "True: fleet totals from the shared store plus this replica's unflushed counts. False: this replica only.",
        ),
    })
    .describe('Shadow-tier counters, flushed by every replica to the shared store every 30 seconds.'),
});
export type SettingsResponse = z.infer<typeof settingsResponseSchema>;

export const bootstrapDurableRequestSchema = z.object({
  spendDbUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .describe('Shared durable store connection string.'),
  contentKey: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters')
    .optional()
    .describe("The gateway's content key, when it has one."),
  contentMode: z.string().describe('Content mode; `off` stops new durable content.'),
  allowPlaintext: z
    .enum(['true', 'false'])
    .describe('Accepted for compatibility; the optimizer never stores content unencrypted.'),
});
export type BootstrapDurableRequest = z.infer<typeof bootstrapDurableRequestSchema>;
export const bootstrapDurableResponseSchema = z.object({ durable: z.boolean() });

export const retrievalStoreStateSchema = z.enum(['ready', 'cooldown', 'unconfigured', 'content_disabled']);
export type RetrievalStoreState = z.infer<typeof retrievalStoreStateSchema>;

export const reportingStateSchema = z.enum([
  'reported',
  'underreported',
  'insufficient_data',
  'unknown',
  'no_store',
  'not_optimizing',
]);

export const healthReportSchema = z.looseObject({
  status: z.literal('ok'),
  protocolVersion: z.literal(1),
  requestSignatures: z.enum(['enforced', 'off']).describe('`enforced` once a verify key is configured.'),
  callers: z.looseObject({
    gateway: z.number().int().describe('Optimize calls since start carrying a gateway-stamped session id.'),
    foreign: z.number().int().describe('Optimize calls since start without one (advisory, not a security control).'),
    firstForeignAt: z.string().nullable(),
    lastForeignAt: z.string().nullable(),
  }),
  reporting: z.looseObject({
    state: reportingStateSchema,
    calls: z.number().int(),
    rows: z.number().int(),
    foreignCalls: z.number().int(),
    checkedAt: z.string(),
  }),
  retrievalStore: z.looseObject({ state: retrievalStoreStateSchema, durable: z.enum(['pg', 'pglite']).nullable() }),
  features: optimizerFeaturesSchema,
  guard: z
    .looseObject({
      enabled: z.boolean(),
      open: z.number().int().describe('Lanes suppressed.'),
      halfOpen: z.number().int().describe('Lanes probing.'),
      closed: z.number().int(),
    })
    .optional()
    .describe('Regression-guard lanes of this replica by state.'),
  holdout: z
    .looseObject({ enabled: z.boolean(), fraction: z.number().nullable(), kinds: z.array(z.string()) })
    .optional()
    .describe('Audited-holdout settings in force.'),
});
export type HealthReport = z.infer<typeof healthReportSchema>;
