import type { KubeObject } from '../kube/kube-api.js';
import { components, objectName, ownedMetadata, selectorLabels, type ComponentName, type GatewayResource } from './stack-names.js';

export function buildService(gateway: GatewayResource, component: ComponentName): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: ownedMetadata(gateway, objectName(gateway, component), component),
    spec: {
      type: 'ClusterIP',
      selector: selectorLabels(gateway, component),
      ports: [{ name: 'http', port: components[component].port, targetPort: 'http', protocol: 'TCP' }],
    },
  };
}

/** At most one pod of a component down during voluntary disruptions (drains, upgrades). */
export function buildPodDisruptionBudget(gateway: GatewayResource, component: ComponentName): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: ownedMetadata(gateway, objectName(gateway, component), component),
    spec: { maxUnavailable: 1, selector: { matchLabels: selectorLabels(gateway, component) } },
  };
}

export function buildHorizontalPodAutoscaler(gateway: GatewayResource, component: ComponentName): KubeObject | null {
  const autoscaling = gateway.spec.components[component].autoscaling;
  if (!autoscaling) return null;
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: ownedMetadata(gateway, objectName(gateway, component), component),
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: objectName(gateway, component) },
      minReplicas: autoscaling.minReplicas,
      maxReplicas: autoscaling.maxReplicas,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: autoscaling.targetCPUUtilizationPercentage } } }],
    },
  };
}
