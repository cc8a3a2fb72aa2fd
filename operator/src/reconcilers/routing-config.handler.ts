import { isDeepStrictEqual } from 'node:util';
import { routingConfigSpec, type RoutingConfigSpec } from '@gw/contracts';
import type { KubeObject } from '../kube/kube-api.js';
import type { ManagementClient, ModelEntry, RoutingDocument } from '../management/management-client.js';
import type { ApplyResult, PolicyHandler } from './policy-reconciler.js';

function specOf(object: KubeObject): RoutingConfigSpec {
  return routingConfigSpec.parse(object.spec);
}

const money = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** The CRD's decimal strings become the admin API's numbers here, at the boundary (spec 000 §2). */
export function desiredModels(spec: RoutingConfigSpec): ModelEntry[] {
  return (spec.models ?? []).map((model) =>
    withoutUndefined({
      name: model.name,
      provider: model.provider,
      inputUsdPerMillionTokens: money(model.inputUsdPerMillionTokens),
      outputUsdPerMillionTokens: money(model.outputUsdPerMillionTokens),
      cacheReadUsdPerMillionTokens: money(model.cacheReadUsdPerMillionTokens),
      cacheWriteUsdPerMillionTokens: money(model.cacheWriteUsdPerMillionTokens),
      maxOutputTokens: model.maxOutputTokens,
    }),
  );
}

function desiredRouting(spec: RoutingConfigSpec): RoutingDocument {
  return { defaultProvider: spec.defaultProvider, routing: spec.routing ? { mode: spec.routing.mode, onStatusCodes: spec.routing.onStatusCodes, targets: spec.routing.targets.map((target) => withoutUndefined({ ...target })) } : null };
}

const byName = <T extends { name: string }>(items: T[]): T[] => [...items].sort((left, right) => left.name.localeCompare(right.name));

/** RoutingConfig → `/admin/v1/routing`, `/routing/aliases`, `/routing/models` (spec 000 §4.8); one per Gateway. */
export const routingConfigHandler: PolicyHandler = {
  kind: 'RoutingConfig',
  claim: (object) => `${specOf(object).gatewayRef.name}/routing`,
  describeClaim: (object) => `configures routing for Gateway "${specOf(object).gatewayRef.name}"`,
  async apply(object: KubeObject, client: ManagementClient): Promise<ApplyResult> {
    const spec = specOf(object);
    let wrote = false;
    const routing = desiredRouting(spec);
    const currentRouting = await client.getRouting();
    if (!isDeepStrictEqual({ defaultProvider: currentRouting.defaultProvider, routing: currentRouting.routing ?? null }, routing)) {
      await client.putRouting(routing);
      wrote = true;
    }
    const aliases = byName((spec.aliases ?? []).map((alias) => withoutUndefined({ ...alias })));
    if (!isDeepStrictEqual(byName(await client.getAliases()), aliases)) {
      await client.putAliases(aliases);
      wrote = true;
    }
    const models = byName(desiredModels(spec));
    if (!isDeepStrictEqual(byName(await client.getModels()), models)) {
      await client.putModels(models);
      wrote = true;
    }
    return { wrote, message: `Default provider "${spec.defaultProvider}", ${aliases.length} aliases, ${models.length} models` };
  },
  async cleanup(_object: KubeObject, client: ManagementClient): Promise<void> {
    await client.putRouting({ defaultProvider: null, routing: null });
    await client.putAliases([]);
    await client.putModels([]);
  },
};
