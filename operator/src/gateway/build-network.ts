import type { KubeObject } from '../kube/kube-api.js';
import {
  componentNames,
  components,
  objectName,
  ownedMetadata,
  selectorLabels,
  type ComponentName,
  type GatewayResource,
} from './stack-names.js';

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
      metrics: [
        {
          type: 'Resource',
          resource: {
            name: 'cpu',
            target: { type: 'Utilization', averageUtilization: autoscaling.targetCPUUtilizationPercentage },
          },
        },
      ],
    },
  };
}

/** The name of the Gateway's ServiceMonitor. */
export const serviceMonitorName = (gateway: GatewayResource) => objectName(gateway, 'metrics');

/** A Prometheus Operator ServiceMonitor over the Services of the components that serve metrics. */
export function buildServiceMonitor(
  gateway: GatewayResource,
  settings: { interval: string; labels?: Record<string, string> },
): KubeObject {
  const metadata = ownedMetadata(gateway, serviceMonitorName(gateway));
  const scraped = componentNames.filter((component) => components[component].metricsPath !== null);
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { ...metadata, labels: { ...settings.labels, ...metadata.labels } },
    spec: {
      selector: {
        matchLabels: { 'app.kubernetes.io/name': 'gw', 'app.kubernetes.io/instance': gateway.metadata.name },
        matchExpressions: [{ key: 'app.kubernetes.io/component', operator: 'In', values: scraped }],
      },
      namespaceSelector: { matchNames: [gateway.metadata.namespace ?? 'default'] },
      endpoints: [{ port: 'http', path: '/metrics', interval: settings.interval }],
    },
  };
}
