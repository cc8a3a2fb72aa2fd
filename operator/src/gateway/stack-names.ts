import type { GatewaySpec } from '@gw/contracts';
import type { KubeObject, OwnerReference } from '../kube/kube-api.js';

/**
 * The three services a Gateway runs (ARCHITECTURE.md layout), all from the one component image whose first argument
 * picks the service (Containerfile, README "Container images"), how each listens, and its probe paths: the gateway's
 * `/livez` and readiness `/` (its health endpoints), the optimizer's health report `/health` (answered while the
 * process serves), the evidence service's `/livez` and `/readyz`; the gateway and the optimizer serve Prometheus
 * metrics, the evidence service none. e2e/test/images.test.ts probes the images on these paths.
 */
export const components = {
  gateway: { port: 8787, probes: { liveness: '/livez', readiness: '/' }, metricsPath: '/metrics' },
  optimizer: { port: 8088, probes: { liveness: '/health', readiness: '/health' }, metricsPath: '/metrics' },
  evidence: { port: 8089, probes: { liveness: '/livez', readiness: '/readyz' }, metricsPath: null },
} as const;

export type ComponentName = keyof typeof components;
export const componentNames = Object.keys(components) as ComponentName[];

export interface GatewayResource extends KubeObject {
  spec: GatewaySpec;
}

export function objectName(gateway: KubeObject, suffix: string): string {
  return `${gateway.metadata.name}-${suffix}`;
}

export function selectorLabels(gateway: KubeObject, component: ComponentName): Record<string, string> {
  return {
    'app.kubernetes.io/name': 'gw',
    'app.kubernetes.io/instance': gateway.metadata.name,
    'app.kubernetes.io/component': component,
  };
}

export function labels(gateway: KubeObject, component?: ComponentName): Record<string, string> {
  return {
    'app.kubernetes.io/name': 'gw',
    'app.kubernetes.io/instance': gateway.metadata.name,
    'app.kubernetes.io/part-of': 'gw',
    'app.kubernetes.io/managed-by': 'gw-operator',
    ...(component === undefined ? {} : { 'app.kubernetes.io/component': component }),
  };
}

/** Owned objects are garbage-collected with their Gateway. */
export function ownerReference(gateway: KubeObject): OwnerReference {
  return {
    apiVersion: gateway.apiVersion,
    kind: gateway.kind,
    name: gateway.metadata.name,
    uid: gateway.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function ownedMetadata(gateway: KubeObject, name: string, component?: ComponentName) {
  return {
    name,
    namespace: gateway.metadata.namespace,
    labels: labels(gateway, component),
    ownerReferences: [ownerReference(gateway)],
  };
}

/** Replicas the component runs with: its fixed count, the autoscaler's minimum, or one. */
export function desiredReplicas(spec: GatewaySpec, component: ComponentName): number {
  const settings = spec.components[component];
  return settings.autoscaling?.minReplicas ?? settings.replicas ?? 1;
}

export function serviceUrl(gateway: KubeObject, component: ComponentName): string {
  return `http://${objectName(gateway, component)}.${gateway.metadata.namespace}.svc:${components[component].port}`;
}
