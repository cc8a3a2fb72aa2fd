import { crdApiVersion } from '@gw/contracts';
import type { KubeObject } from '../kube/kube-api.js';
import { Controller, type SecondaryWatch } from '../runtime/controller.js';
import type { OperatorMetrics } from '../runtime/metrics.js';
import type { ReconcilerDeps } from './context.js';
import { desktopPolicyHandler } from './desktop-policy.handler.js';
import { PolicyReconciler, type PolicyHandler } from './policy-reconciler.js';
import { providerKeyHandler } from './provider-key.handler.js';
import { routingConfigHandler } from './routing-config.handler.js';
import { serviceKeyHandler } from './service-key.handler.js';
import { userCapHandler } from './user-cap.handler.js';

type Spec = Record<string, unknown> & { gatewayRef?: { name: string } };

const keyOf = (object: KubeObject): string => `${object.metadata.namespace ?? ''}/${object.metadata.name}`;
const specOf = (object: KubeObject): Spec => (object.spec ?? {}) as Spec;

/** Requeues the policy resources of a Gateway when it changes (it became ready, or went away). */
const gatewayWatch: SecondaryWatch = {
  apiVersion: crdApiVersion,
  kind: 'Gateway',
  map: (gateway, primaries) => primaries.filter((object) => object.metadata.namespace === gateway.metadata.namespace && specOf(object).gatewayRef?.name === gateway.metadata.name).map(keyOf),
};

/** Requeues the resources that read a Secret when it changes: a rotated provider key is re-applied (issue 9 item 2). */
function secretWatch(secretNamesOf: (spec: Spec) => (string | undefined)[]): SecondaryWatch {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    map: (secret, primaries) => primaries.filter((object) => object.metadata.namespace === secret.metadata.namespace && secretNamesOf(specOf(object)).includes(secret.metadata.name)).map(keyOf),
  };
}

interface PolicyKind {
  handler: (deps: ReconcilerDeps) => PolicyHandler;
  secrets?: (spec: Spec) => (string | undefined)[];
}

const policyKinds: PolicyKind[] = [
  { handler: (deps) => providerKeyHandler(deps.api), secrets: (spec) => [(spec.secretRef as { name?: string } | undefined)?.name] },
  { handler: () => routingConfigHandler },
  { handler: (deps) => userCapHandler(deps.api), secrets: (spec) => [(spec.alerts as { webhookSecretRef?: { name?: string } } | undefined)?.webhookSecretRef?.name] },
  { handler: (deps) => serviceKeyHandler(deps.api), secrets: (spec) => [spec.secretName as string | undefined] },
  { handler: () => desktopPolicyHandler },
];

export interface ControllerSettings {
  metrics: OperatorMetrics;
  namespace?: string;
  resyncMs: number;
}

/** One controller per policy kind, each with the watches that should requeue it. */
export function policyControllers(deps: ReconcilerDeps, settings: ControllerSettings): Controller[] {
  return policyKinds.map((kind) => {
    const handler = kind.handler(deps);
    // The reconciler sees its peers (conflict detection) through the controller's informer cache.
    const holder: { controller?: Controller } = {};
    const reconciler = new PolicyReconciler(deps, handler, () => holder.controller?.informer.list() ?? []);
    holder.controller = new Controller({
      api: deps.api,
      timers: deps.timers,
      logger: deps.logger,
      metrics: settings.metrics,
      reconciler,
      resyncMs: settings.resyncMs,
      ...(settings.namespace === undefined ? {} : { namespace: settings.namespace }),
      watches: [gatewayWatch, ...(kind.secrets ? [secretWatch(kind.secrets)] : [])],
    });
    return holder.controller;
  });
}
