import {
  desktopPolicySpec,
  gatewaySpec,
  providerKeySpec,
  routingConfigSpec,
  serviceKeySpec,
  userCapSpec,
  type GatewaySpec,
} from '@gw/contracts';
import type { z } from 'zod';
import type { KubeObject } from '../kube/kube-api.js';

export interface SecretKeyReference {
  name: string;
  key: string;
}

/** The Secrets a Gateway reads values from (its database and Redis URLs). */
export function gatewaySecretRefs(spec: GatewaySpec): SecretKeyReference[] {
  return [spec.database.urlSecretRef, ...(spec.redis ? [spec.redis.urlSecretRef] : [])];
}

interface SecretReader<Spec> {
  spec: z.ZodType<Spec>;
  names(spec: Spec): string[];
}

const reader = <Spec>(spec: z.ZodType<Spec>, names: (spec: Spec) => string[]): SecretReader<unknown> => ({
  spec,
  names: (parsed) => names(parsed as Spec),
});

/**
 * Per kind, the names of the Secrets (same namespace) a resource's typed spec refers to: when one of them changes,
 * the resource is reconciled again (a rotated provider key is re-applied, a deleted minted-key Secret is written
 * again). Image pull Secrets are only named to the kubelet, so their changes need no reconcile.
 */
const secretReaders: Record<string, SecretReader<unknown>> = {
  Gateway: reader(gatewaySpec, (spec) => gatewaySecretRefs(spec).map((ref) => ref.name)),
  ProviderKey: reader(providerKeySpec, (spec) => [spec.secretRef.name]),
  UserCap: reader(userCapSpec, (spec) => (spec.alerts ? [spec.alerts.webhookSecretRef.name] : [])),
  ServiceKey: reader(serviceKeySpec, (spec) => [spec.secretName]),
  RoutingConfig: reader(routingConfigSpec, () => []),
  DesktopPolicy: reader(desktopPolicySpec, () => []),
};

// Parsed once per object version: the informer cache replaces the object on every change, so identity is enough.
const parsedNames = new WeakMap<KubeObject, readonly string[]>();

/**
 * The Secret names a resource references. A spec that does not parse references nothing: its reconcile fails on
 * the same parse and reports it, and a Secret change cannot fix it.
 */
export function referencedSecretNames(object: KubeObject): readonly string[] {
  const cached = parsedNames.get(object);
  if (cached !== undefined) return cached;
  const secretReader = secretReaders[object.kind];
  const parsed = secretReader?.spec.safeParse(object.spec);
  const names = secretReader && parsed?.success ? [...new Set(secretReader.names(parsed.data))] : [];
  parsedNames.set(object, names);
  return names;
}

/** The keys ("namespace/name") of the resources among `candidates` that reference this Secret. */
export function resourcesReferencingSecret(secret: KubeObject, candidates: readonly KubeObject[]): string[] {
  return candidates
    .filter(
      (candidate) =>
        candidate.metadata.namespace === secret.metadata.namespace &&
        referencedSecretNames(candidate).includes(secret.metadata.name),
    )
    .map((candidate) => `${candidate.metadata.namespace ?? ''}/${candidate.metadata.name}`);
}
