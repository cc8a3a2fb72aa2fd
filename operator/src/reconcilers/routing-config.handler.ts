import { isDeepStrictEqual } from 'node:util';
import { routingConfigSpec, type RoutingConfigSpec } from '@gw/contracts';
import type { KubeObject } from '../kube/kube-api.js';
import type {
  ManagementClient,
  ModelAliases,
  ModelPricing,
  ModelTable,
  ProviderKeyState,
} from '../management/management-client.js';
import type { ApplyResult, PolicyHandler } from './policy-reconciler.js';

function specOf(object: KubeObject): RoutingConfigSpec {
  return routingConfigSpec.parse(object.spec);
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** The default routing config in the gateway's own spelling (gateway/src/routing/routing-config.ts); null when none. */
export function desiredConfig(spec: RoutingConfigSpec): Record<string, unknown> | null {
  if (!spec.routing) return null;
  const { mode, onStatusCodes, targets } = spec.routing;
  return {
    mode,
    onStatusCodes,
    targets: targets.map((target) =>
      withoutUndefined({ provider: target.provider, model: target.model, weight: target.weight, retry: target.retry }),
    ),
  };
}

/** Alias → provider and model; an alias naming no provider resolves through the default provider. */
export function desiredAliases(spec: RoutingConfigSpec): ModelAliases {
  return Object.fromEntries(
    (spec.aliases ?? []).map((alias) => [
      alias.name,
      { provider: alias.provider ?? spec.defaultProvider, model: alias.model },
    ]),
  );
}

/**
 * The CRD's decimal strings become the admin API's numbers here, at the boundary, in the shape the
 * gateway stores: cache prices default to the input price; the price family follows the type of the provider the
 * entry (or the default provider) names. Both list prices are required by the CRD schema, as the gateway needs them.
 */
export function desiredModels(spec: RoutingConfigSpec, providers: readonly ProviderKeyState[]): ModelTable {
  const typeOf = (slug: string) => providers.find((provider) => provider.slug === slug)?.type;
  return Object.fromEntries(
    (spec.models ?? []).map((model) => {
      const input = Number(model.inputUsdPerMillionTokens);
      const pricing: ModelPricing = withoutUndefined({
        family:
          typeOf(model.provider ?? spec.defaultProvider) === 'anthropic' ? ('anthropic' as const) : ('openai' as const),
        inputPerMTok: input,
        outputPerMTok: Number(model.outputUsdPerMillionTokens),
        cacheReadPerMTok:
          model.cacheReadUsdPerMillionTokens === undefined ? input : Number(model.cacheReadUsdPerMillionTokens),
        cacheWritePerMTok:
          model.cacheWriteUsdPerMillionTokens === undefined ? input : Number(model.cacheWriteUsdPerMillionTokens),
        maxOutputTokens: model.maxOutputTokens,
      });
      return [model.name, pricing];
    }),
  );
}

/**
 * RoutingConfig → `/admin/v1/routing`, `/routing/aliases`, `/routing/models`; one per Gateway. Each
 * part is read, compared and written only when it differs. The default model is not part of the resource and is
 * carried through untouched.
 */
export const routingConfigHandler: PolicyHandler = {
  kind: 'RoutingConfig',
  claim: (object) => `${specOf(object).gatewayRef.name}/routing`,
  describeClaim: (object) => `configures routing for Gateway "${specOf(object).gatewayRef.name}"`,
  async apply(object: KubeObject, client: ManagementClient): Promise<ApplyResult> {
    const spec = specOf(object);
    const models = (spec.models ?? []).length === 0 ? {} : desiredModels(spec, await client.listProviderKeys());
    let wrote = false;
    const config = desiredConfig(spec);
    const routing = await client.getRouting();
    if (routing.defaultProvider !== spec.defaultProvider || !isDeepStrictEqual(routing.config, config)) {
      await client.putRouting({ defaultProvider: spec.defaultProvider, defaultModel: routing.defaultModel, config });
      wrote = true;
    }
    const aliases = desiredAliases(spec);
    if (!isDeepStrictEqual(await client.getAliases(), aliases)) {
      await client.putAliases(aliases);
      wrote = true;
    }
    if (!isDeepStrictEqual(await client.getModels(), models)) {
      await client.putModels(models);
      wrote = true;
    }
    return {
      wrote,
      message: `Default provider "${spec.defaultProvider}", ${Object.keys(aliases).length} aliases, ${Object.keys(models).length} models`,
    };
  },
  async cleanup(_object: KubeObject, client: ManagementClient): Promise<void> {
    const routing = await client.getRouting();
    await client.putRouting({ defaultProvider: null, defaultModel: routing.defaultModel, config: null });
    await client.putAliases({});
    await client.putModels({});
  },
};
