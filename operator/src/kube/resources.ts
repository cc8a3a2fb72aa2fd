import { crdApiVersion, crdDefinitions } from '@gw/contracts';

/** Every kind the operator reads or writes, with its REST coordinates (no discovery round-trips needed). */
export interface ResourceType {
  apiVersion: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

const builtin: ResourceType[] = [
  { apiVersion: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  { apiVersion: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true },
  { apiVersion: 'v1', kind: 'Service', plural: 'services', namespaced: true },
  { apiVersion: 'v1', kind: 'Event', plural: 'events', namespaced: true },
  { apiVersion: 'apps/v1', kind: 'Deployment', plural: 'deployments', namespaced: true },
  { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true },
  {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    namespaced: true,
  },
  { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', plural: 'leases', namespaced: true },
  { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', plural: 'servicemonitors', namespaced: true },
];

const custom: ResourceType[] = crdDefinitions.map((definition) => ({
  apiVersion: crdApiVersion,
  kind: definition.kind,
  plural: definition.plural,
  namespaced: true,
}));

export const resourceTypes: readonly ResourceType[] = [...builtin, ...custom];

export function resourceType(apiVersion: string, kind: string): ResourceType {
  const type = resourceTypes.find((candidate) => candidate.apiVersion === apiVersion && candidate.kind === kind);
  if (type === undefined) throw new Error(`the operator does not know ${kind} in ${apiVersion}`);
  return type;
}

/** REST path of a collection or, with a name, an object (and optionally a subresource). */
export function resourcePath(type: ResourceType, namespace?: string, name?: string, subresource?: string): string {
  const prefix = type.apiVersion.includes('/') ? `/apis/${type.apiVersion}` : `/api/${type.apiVersion}`;
  const scope = type.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const object =
    name === undefined ? '' : `/${encodeURIComponent(name)}${subresource === undefined ? '' : `/${subresource}`}`;
  return `${prefix}${scope}/${type.plural}${object}`;
}
