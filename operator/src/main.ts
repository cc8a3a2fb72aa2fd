import { createLogger } from '@gw/platform';
import { KubeConfig } from '@kubernetes/client-node';
import { gatewayUrlFor, loadOperatorConfig } from './config.js';
import { createHealthServer } from './health-server.js';
import { HttpKubeApi } from './kube/http-kube-api.js';
import { HttpManagementClient } from './management/http-management-client.js';
import { Operator } from './operator.js';
import { OperatorMetrics } from './runtime/metrics.js';
import { systemTimers } from './runtime/timers.js';

// Composition root: config → logger → Kubernetes client → operator → /metrics and /healthz → signals.
const config = loadOperatorConfig();
const logger = createLogger({ name: 'gw-operator', level: config.GW_LOG_LEVEL });
const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault(); // in a pod: the service account; elsewhere: KUBECONFIG
const metrics = new OperatorMetrics();
const operator = new Operator({
  api: new HttpKubeApi(kubeConfig),
  timers: systemTimers,
  logger,
  metrics,
  namespaces: config.GW_OPERATOR_WATCH_NAMESPACES,
  resyncMs: config.GW_OPERATOR_RESYNC_SECONDS * 1_000,
  // Management API calls go to the gateway Service, or where GW_OPERATOR_GATEWAY_URLS says when running outside the cluster.
  clientFactory: (baseUrl, bearer) =>
    new HttpManagementClient({ baseUrl: gatewayUrlFor(config.GW_OPERATOR_GATEWAY_URLS, baseUrl), bearer }),
  leaderElection: config.GW_OPERATOR_LEADER_ELECTION
    ? {
        namespace: config.GW_OPERATOR_LEASE_NAMESPACE,
        name: config.GW_OPERATOR_LEASE_NAME,
        identity: config.GW_OPERATOR_IDENTITY,
      }
    : null,
});
let shuttingDown = false;
const server = createHealthServer(metrics, { healthy: () => !shuttingDown });
server.listen(config.GW_OPERATOR_METRICS_PORT, '0.0.0.0');
await operator.start();
logger.info(
  {
    namespaces: config.GW_OPERATOR_WATCH_NAMESPACES,
    identity: config.GW_OPERATOR_IDENTITY,
    gatewayOverrides: [...config.GW_OPERATOR_GATEWAY_URLS.keys()],
  },
  'gw operator started',
);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    void operator.stop().finally(() => server.close(() => process.exit(0)));
  });
}
