import { z } from 'zod';
import { modelId, providerSlug } from './common.js';

/**
 * The response cache's settings, in the spelling Portkey configs use (`cache: {mode, max_age}`) plus the gateway's
 * sharing rule. `mode` opts sampled requests in (deterministic ones are cached without it); `max_age` bounds how long
 * an entry written by the call lives; `share` widens the partition from the caller to its team. The gateway's routing
 * README ("Response cache") says how they combine.
 */
export const cacheSettingsSchema = z.strictObject({
  mode: z
    .enum(['simple', 'semantic', 'off'])
    .optional()
    .describe('`simple` or `semantic`: cache sampled requests too; `off`: never use the cache'),
  max_age: z
    .number()
    .int()
    .min(1)
    .max(31_536_000)
    .optional()
    .describe('Seconds an entry written by this call may be served'),
  share: z
    .enum(['user', 'team'])
    .optional()
    .describe('Who shares entries: each user or service key (default), or the whole team; stored routing only'),
});
export type CacheSettings = z.infer<typeof cacheSettingsSchema>;

/** `/admin/v1/routing`: the default provider, the default model, the default routing config and the response cache. */
export const routingDocument = z.strictObject({
  defaultProvider: providerSlug
    .nullable()
    .describe('Provider used when neither x-gw-provider nor x-gw-config selects one'),
  defaultModel: modelId.nullable().optional().describe('Model for requests that name none (`gw-default`)'),
  config: z
    .record(z.string(), z.unknown())
    .nullable()
    .optional()
    .describe(
      'Default routing config: {mode, onStatusCodes, retry, targets} (Portkey spelling accepted); never credentials',
    ),
  cache: cacheSettingsSchema
    .nullable()
    .optional()
    .describe('Response cache: {mode, max_age} (Portkey spelling) and share (`user` default, or `team`)'),
});
export type RoutingDocument = z.infer<typeof routingDocument>;

/** `/admin/v1/routing/aliases`: alias → provider and model. */
export const aliasDocument = z.strictObject({
  aliases: z
    .record(modelId, z.strictObject({ provider: providerSlug, model: modelId }))
    .describe('Alias → provider and model'),
});
export type ModelAliases = z.infer<typeof aliasDocument>['aliases'];

const price = z.number().min(0).max(100_000);

/** One entry of `/admin/v1/routing/models`: list prices in USD per million tokens and the output ceiling. */
export const modelPricing = z.strictObject({
  family: z.enum(['openai', 'anthropic']).default('openai'),
  inputPerMTok: price,
  outputPerMTok: price,
  cacheReadPerMTok: price.optional(),
  cacheWritePerMTok: price.optional(),
  maxOutputTokens: z.number().int().min(1).max(10_000_000).optional(),
  contextTokens: z.number().int().min(1).max(100_000_000).optional(),
  defaultOutputTokens: z
    .number()
    .int()
    .min(1)
    .max(10_000_000)
    .optional()
    .describe(
      'Output tokens a strict budget reserves for a request without max_tokens (default GW_STRICT_DEFAULT_OUTPUT_TOKENS)',
    ),
});
export type ModelPricing = z.infer<typeof modelPricing>;

export const modelsDocument = z.strictObject({
  models: z
    .record(modelId, modelPricing)
    .describe(
      'Per-model list prices (USD per million tokens) and output ceilings; override and extend the built-in table',
    ),
});
export type ModelTable = z.infer<typeof modelsDocument>['models'];
