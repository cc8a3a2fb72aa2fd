export { Operator, type OperatorOptions } from './operator.js';
export { HttpKubeApi } from './kube/http-kube-api.js';
export type { KubeApi, KubeObject, ObjectRef } from './kube/kube-api.js';
export { HttpManagementClient } from './management/http-management-client.js';
export { FakeManagementClient } from './management/fake-management-client.js';
export * from './management/management-client.js';
export { crdManifest, crdYaml, generatedCrdFiles } from './gen/crd-yaml.js';
export { OperatorMetrics } from './runtime/metrics.js';
