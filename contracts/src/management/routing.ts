import { z } from 'zod';
import { modelId, providerSlug } from './common.js';

/** `/admin/v1/routing`: the default provider, the default model and the default routing config. */
export const routingDocument = z.strictObject({
  defaultProvider: providerSlug.nullable().describe('Provider used when neither x-gw-provider nor x-gw-config selects one'),
  defaultModel: modelId.nullable().optional().describe('Model for requests that name none (`gw-default`)'),
  config: z.record(z.string(), z.unknown()).nullable().optional().describe('Default routing config: {mode, onStatusCodes, retry, targets} (Portkey spelling accepted); never credentials'),
});
export type RoutingDocument = z.infer<typeof routingDocument>;

/** `/admin/v1/routing/aliases`: alias → provider and model. */
export const aliasDocument = z.strictObject({
  aliases: z.record(modelId, z.strictObject({ provider: providerSlug, model: modelId })).describe('Alias → provider and model'),
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
});
export type ModelPricing = z.infer<typeof modelPricing>;

export const modelsDocument = z.strictObject({
  models: z
    .record(modelId, modelPricing)
    .describe('Per-model list prices (USD per million tokens) and output ceilings; override and extend the built-in table'),
});
export type ModelTable = z.infer<typeof modelsDocument>['models'];
