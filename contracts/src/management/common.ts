import { z } from 'zod';

/**
 * Names and building blocks shared by the Management API v1 bodies, the gateway that serves them, the operator that
 * calls them and the custom resources that feed the operator. Each closed set is declared here once.
 */

/** A provider instance's `type`: decides its wire family and the fields its key write needs. */
export const providerTypes = ['openai', 'azure-openai', 'anthropic', 'openai-compatible', 'gw-upstream'] as const;
export type ProviderType = (typeof providerTypes)[number];

/** Reset cadence of a per-user cap; every period boundary is UTC. */
export const capResets = ['never', 'daily', 'weekly', 'monthly'] as const;
export type CapReset = (typeof capResets)[number];

/** A provider slug as a path segment of `/admin/v1/providers/{slug}/key` and as a routing target. */
export const providerSlug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a provider slug is 1-63 lowercase letters, digits and dashes');

/**
 * A model id wherever one enters the gateway (request bodies, aliases, routing configs). It is echoed in response
 * headers (`x-gw-target`) and stored on spend rows, so it is printable ASCII and bounded: a control character or a
 * 200 KB id is a 400 where it arrives, not a header the server cannot write after the provider has answered.
 */
export const modelId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x20-\x7e]+$/, 'must be printable ASCII');

/** The body of an admin write that has nothing else to say. */
export const okResponse = z.object({ ok: z.literal(true) });
