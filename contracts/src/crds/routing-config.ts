import { z } from 'zod';
import {
  ageColumn,
  baseStatusShape,
  gatewayColumn,
  gatewayRef,
  httpStatusCode,
  providerSlug,
  readyColumn,
  reasonColumn,
  tokenCount,
  usdPrice,
  withRules,
  type CrdDefinition,
} from './common.js';

/**
 * RoutingConfig: the gateway's default provider, routing, model aliases,
 * pricing and output ceilings, applied through `/admin/v1/routing`, `/routing/aliases` and
 * `/routing/models`. One per Gateway; a second one is reported as a conflict.
 */

const modelId = z.string().min(1).max(256).regex(/^[A-Za-z0-9][A-Za-z0-9._:/@-]*$/);

const statusCodes = z.array(httpStatusCode).max(16);

const retry = z
  .object({
    attempts: z.int().min(0).max(10).describe('Retries after the first attempt.'),
    onStatusCodes: statusCodes.default([429, 502, 503, 504]).describe('Statuses that are retried, honoring Retry-After.'),
  })
  .strict();

const target = z
  .object({
    provider: providerSlug,
    model: modelId.optional().describe('Model override sent to this target.'),
    weight: z.int().min(0).max(1000).optional().describe('Share in loadbalance mode.'),
    retry: retry.optional(),
  })
  .strict();

const routing = withRules(
  z
    .object({
      mode: z.enum(['fallback', 'loadbalance']),
      onStatusCodes: statusCodes
        .default([429, 500, 502, 503, 504])
        .describe('Statuses on which fallback advances to the next target.'),
      targets: z.array(target).min(1).max(32),
    })
    .strict()
    .describe('Carries no credentials: targets name providers whose keys the gateway holds.'),
  [
    {
      rule: "self.mode != 'loadbalance' || self.targets.all(t, has(t.weight))",
      message: 'every target needs a weight in loadbalance mode',
      fieldPath: '.targets',
    },
    {
      rule: "self.mode != 'loadbalance' || self.targets.exists(t, has(t.weight) && t.weight > 0)",
      message: 'at least one loadbalance target needs a positive weight',
      fieldPath: '.targets',
    },
  ],
);

const alias = z
  .object({
    name: modelId.describe('The name clients send.'),
    model: modelId.describe('The model it resolves to.'),
    provider: providerSlug.optional(),
  })
  .strict();

const modelEntry = z
  .object({
    name: modelId,
    provider: providerSlug.optional(),
    inputUsdPerMillionTokens: usdPrice.describe('List price of input tokens (the gateway needs both prices to cost a model).'),
    outputUsdPerMillionTokens: usdPrice.describe('List price of output tokens.'),
    cacheReadUsdPerMillionTokens: usdPrice.optional(),
    cacheWriteUsdPerMillionTokens: usdPrice.optional(),
    maxOutputTokens: tokenCount.optional().describe('Hard output ceiling; larger max_tokens are clamped.'),
  })
  .strict();

export const routingConfigSpec = z
  .object({
    gatewayRef,
    defaultProvider: providerSlug.describe('Provider used when neither header nor routing config chooses one.'),
    routing: routing.optional(),
    aliases: z
      .array(alias)
      .max(256)
      .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] })
      .optional(),
    models: z
      .array(modelEntry)
      .max(512)
      .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] })
      .optional()
      .describe('Pricing (USD per million tokens) and output ceilings per model.'),
  })
  .strict();

export const routingConfigStatus = z.object(baseStatusShape).strict();

export type RoutingConfigSpec = z.infer<typeof routingConfigSpec>;
export type RoutingConfigStatus = z.infer<typeof routingConfigStatus>;

export const routingConfigCrd: CrdDefinition<typeof routingConfigSpec, typeof routingConfigStatus> = {
  kind: 'RoutingConfig',
  plural: 'routingconfigs',
  singular: 'routingconfig',
  shortNames: ['gwrc'],
  description: 'Default provider, fallback or loadbalance routing, model aliases, pricing and ceilings of a Gateway.',
  spec: routingConfigSpec,
  status: routingConfigStatus,
  printerColumns: [
    gatewayColumn,
    { name: 'Default', type: 'string', jsonPath: '.spec.defaultProvider' },
    { name: 'Mode', type: 'string', jsonPath: '.spec.routing.mode' },
    readyColumn,
    reasonColumn,
    ageColumn,
  ],
};
