export { Operator, type OperatorOptions } from './operator.js';
export { HttpKubeApi } from './kube/http-kube-api.js';
export {
  KubeApiError,
  type KubeApi,
  type KubeObject,
  type ObjectList,
  type ObjectRef,
  type WatchHandlers,
} from './kube/kube-api.js';
export { HttpManagementClient } from './management/http-management-client.js';
export * from './management/management-client.js';
export { crdManifest, crdYaml, generatedCrdFiles } from './gen/crd-yaml.js';
export { OperatorMetrics } from './runtime/metrics.js';
export { systemTimers, type Timers } from './runtime/timers.js';
export { components, serviceUrl, type ComponentName } from './gateway/stack-names.js';
export type { ManagementClientFactory } from './reconcilers/gateway-clients.js';
