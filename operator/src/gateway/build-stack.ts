import { createHash } from 'node:crypto';
import type { KubeObject, ObjectRef } from '../kube/kube-api.js';
import type { Outcome } from '../runtime/conditions.js';
import { buildDeployment } from './build-deployment.js';
import {
  buildHorizontalPodAutoscaler,
  buildPodDisruptionBudget,
  buildService,
  buildServiceMonitor,
  serviceMonitorName,
} from './build-network.js';
import { componentNames, objectName, type ComponentName, type GatewayResource } from './stack-names.js';

export interface StackPlan {
  /** Objects to server-side apply. */
  apply: KubeObject[];
  /** Objects that must not exist (a disabled component, autoscaling turned off). */
  remove: ObjectRef[];
}

/**
 * Refusals that need a human: more than one gateway replica without Redis would split limits and counters across
 * replicas (ARCHITECTURE.md "State").
 */
export function checkGateway(gateway: GatewayResource): Extract<Outcome, { kind: 'stalled' }> | null {
  const settings = gateway.spec.components.gateway;
  const maxReplicas = settings.autoscaling?.maxReplicas ?? settings.replicas ?? 1;
  if (maxReplicas > 1 && !gateway.spec.redis) {
    return {
      kind: 'stalled',
      reason: 'RedisRequired',
      message: `spec.components.gateway asks for up to ${maxReplicas} replicas but spec.redis is not set: limits and counters need Redis to be shared across replicas`,
    };
  }
  return null;
}

/** Digest of everything a pod reads at start: a change rolls the Deployment. */
export function configHash(
  gateway: GatewayResource,
  component: ComponentName,
  referencedSecretVersions: Record<string, string>,
): string {
  const input = JSON.stringify({
    spec: gateway.spec,
    component,
    secrets: Object.entries(referencedSecretVersions).sort(),
  });
  return createHash('sha256').update(input).digest('hex').slice(0, 32);
}

function ref(gateway: GatewayResource, apiVersion: string, kind: string, component: ComponentName): ObjectRef {
  return {
    apiVersion,
    kind,
    name: objectName(gateway, component),
    ...(gateway.metadata.namespace === undefined ? {} : { namespace: gateway.metadata.namespace }),
  };
}

/** Everything a Gateway runs, from its spec alone (pure). */
export function planStack(gateway: GatewayResource, referencedSecretVersions: Record<string, string>): StackPlan {
  const plan: StackPlan = { apply: [], remove: [] };
  for (const component of componentNames) {
    const settings = gateway.spec.components[component];
    const kinds = [
      ['apps/v1', 'Deployment'],
      ['v1', 'Service'],
      ['policy/v1', 'PodDisruptionBudget'],
      ['autoscaling/v2', 'HorizontalPodAutoscaler'],
    ] as const;
    if (!settings.enabled) {
      plan.remove.push(...kinds.map(([apiVersion, kind]) => ref(gateway, apiVersion, kind, component)));
      continue;
    }
    // maxUnavailable 1 keeps drains possible even for a single replica.
    plan.apply.push(
      buildDeployment(gateway, component, configHash(gateway, component, referencedSecretVersions)),
      buildService(gateway, component),
      buildPodDisruptionBudget(gateway, component),
    );
    const autoscaler = buildHorizontalPodAutoscaler(gateway, component);
    if (autoscaler) plan.apply.push(autoscaler);
    else plan.remove.push(ref(gateway, 'autoscaling/v2', 'HorizontalPodAutoscaler', component));
  }
  // Only an explicit `enabled: false` removes the ServiceMonitor: without the Prometheus Operator's CRD there is
  // nothing to remove, and the kind does not exist to ask about.
  const serviceMonitor = gateway.spec.metrics?.serviceMonitor;
  if (serviceMonitor?.enabled) plan.apply.push(buildServiceMonitor(gateway, serviceMonitor));
  else if (serviceMonitor?.enabled === false) {
    plan.remove.push({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'ServiceMonitor',
      name: serviceMonitorName(gateway),
      ...(gateway.metadata.namespace === undefined ? {} : { namespace: gateway.metadata.namespace }),
    });
  }
  return plan;
}
