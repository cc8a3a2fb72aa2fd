// The test API server harness (README.md here), exported as `@gw/operator/kube-test-server` for the e2e suites.
export { startKubeTestServer, type KubeTestServer } from './kube-test-server.js';
export { installGwCrds } from './gw-crds.js';
export { kubeRequest, type KubeResponse } from './kube-request.js';
export { generateCertificates, type TestCertificates } from './certificates.js';
export { ensureKubeTools } from './binaries.js';
export { watchUntil, readyCondition, type WatchScope, type ObjectsByName } from './watch-until.js';
// A logger whose lines a test can wait on (the operator's "became leader"), for the e2e suites' operator replicas.
export { recordingLogger } from '../support/recording-logger.js';
