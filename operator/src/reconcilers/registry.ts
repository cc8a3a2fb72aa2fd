import { crdApiVersion } from '@gw/contracts';
import type { KubeObject } from '../kube/kube-api.js';
import { Controller, type SecondaryWatch } from '../runtime/controller.js';
import type { OperatorMetrics } from '../runtime/metrics.js';
import type { InformerRegistry } from '../runtime/shared-informers.js';
import type { ReconcilerDeps } from './context.js';
import { desktopPolicyHandler } from './desktop-policy.handler.js';
import { PolicyReconciler, type PolicyHandler } from './policy-reconciler.js';
import { providerKeyHandler } from './provider-key.handler.js';
import { routingConfigHandler } from './routing-config.handler.js';
import { resourcesReferencingSecret } from './secret-references.js';
import { serviceKeyHandler } from './service-key.handler.js';
import { userCapHandler } from './user-cap.handler.js';

const keyOf = (object: KubeObject): string => `${object.metadata.namespace ?? ''}/${object.metadata.name}`;
const gatewayNameOf = (object: KubeObject): string | undefined =>
  (object.spec as { gatewayRef?: { name?: string } } | undefined)?.gatewayRef?.name;

/** Requeues the policy resources of a Gateway when it changes (it became ready, or went away). */
const gatewayWatch: SecondaryWatch = {
  apiVersion: crdApiVersion,
  kind: 'Gateway',
  map: (gateway, primaries) =>
    primaries
      .filter(
        (object) =>
          object.metadata.namespace === gateway.metadata.namespace && gatewayNameOf(object) === gateway.metadata.name,
      )
      .map(keyOf),
};

/** Requeues the resources whose typed spec names a Secret when it changes: a rotated provider key is re-applied. */
export const secretWatch: SecondaryWatch = { apiVersion: 'v1', kind: 'Secret', map: resourcesReferencingSecret };

interface PolicyKind {
  handler: (deps: ReconcilerDeps) => PolicyHandler;
  /** Whether the kind's spec can name a Secret (see secret-references.ts). */
  readsSecrets: boolean;
}

const policyKinds: PolicyKind[] = [
  { handler: (deps) => providerKeyHandler(deps.api), readsSecrets: true },
  { handler: () => routingConfigHandler, readsSecrets: false },
  { handler: (deps) => userCapHandler(deps.api), readsSecrets: true },
  { handler: (deps) => serviceKeyHandler(deps.api), readsSecrets: true },
  { handler: () => desktopPolicyHandler, readsSecrets: false },
];

export interface ControllerSettings {
  /** Shared with every other controller of the operator: one watch per kind and namespace. */
  informers: InformerRegistry;
  metrics: OperatorMetrics;
  namespace?: string;
  resyncMs: number;
}

/** One controller per policy kind, each with the watches that should requeue it. */
export function policyControllers(deps: ReconcilerDeps, settings: ControllerSettings): Controller[] {
  return policyKinds.map((kind) => {
    const handler = kind.handler(deps);
    // The reconciler sees its peers (conflict detection) through the shared cache of its own kind.
    const peers = settings.informers.informer(crdApiVersion, handler.kind, settings.namespace);
    const reconciler = new PolicyReconciler(deps, handler, () => peers.list());
    return new Controller({
      informers: settings.informers,
      timers: deps.timers,
      logger: deps.logger,
      metrics: settings.metrics,
      reconciler,
      resyncMs: settings.resyncMs,
      ...(settings.namespace === undefined ? {} : { namespace: settings.namespace }),
      watches: [gatewayWatch, ...(kind.readsSecrets ? [secretWatch] : [])],
    });
  });
}
