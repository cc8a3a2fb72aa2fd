import type { GatewaySpec } from '@gw/contracts';
import type { KubeObject } from '../kube/kube-api.js';
import { generatedSecretName, generatedSecrets, type GeneratedSecret } from './generated-secrets.js';
import {
  components,
  desiredReplicas,
  objectName,
  ownedMetadata,
  selectorLabels,
  serviceUrl,
  labels,
  type ComponentName,
  type GatewayResource,
} from './stack-names.js';

type EnvVar =
  { name: string; value: string } | { name: string; valueFrom: { secretKeyRef: { name: string; key: string } } };

export const configHashAnnotation = 'gw.dev/config-hash';

function fromSecret(name: string, secret: { name: string; key: string }): EnvVar {
  return { name, valueFrom: { secretKeyRef: { name: secret.name, key: secret.key } } };
}

function generated(gateway: KubeObject, name: string, secret: GeneratedSecret): EnvVar {
  return fromSecret(name, { name: generatedSecretName(gateway, secret), key: generatedSecrets[secret].key });
}

/** Wiring per component (ARCHITECTURE.md "Configuration"); extra env from the spec cannot shadow it (CRD CEL rule). */
function componentEnv(gateway: GatewayResource, component: ComponentName): EnvVar[] {
  const { spec } = gateway;
  const database = fromSecret('GW_SPEND_DB_URL', spec.database.urlSecretRef);
  const redis = spec.redis ? [fromSecret('GW_REDIS_URL', spec.redis.urlSecretRef)] : [];
  switch (component) {
    case 'gateway':
      return [
        { name: 'GW_PORT', value: String(components.gateway.port) },
        { name: 'GW_HOST', value: '0.0.0.0' },
        { name: 'GW_DATA_DIR', value: '/data' },
        generated(gateway, 'GW_ADMIN_TOKEN', 'adminToken'),
        database,
        ...redis,
        generated(gateway, 'GW_KEYSTORE_KEY', 'keystoreKey'),
        generated(gateway, 'GW_CONTENT_KEY', 'contentKey'),
        ...(spec.components.optimizer.enabled
          ? [
              { name: 'GW_OPTIMIZER_URL', value: serviceUrl(gateway, 'optimizer') },
              generated(gateway, 'GW_OPTIMIZER_TOKEN', 'optimizerToken'),
            ]
          : []),
        // The evidence service's admin plane takes the same generated admin token (its GW_ADMIN_TOKEN fallback).
        ...(spec.components.evidence.enabled
          ? [{ name: 'GW_ENDPOINT_CONTROL_URL', value: serviceUrl(gateway, 'evidence') }]
          : []),
      ];
    case 'optimizer':
      return [
        { name: 'GW_OPTIMIZER_PORT', value: String(components.optimizer.port) },
        { name: 'GW_OPTIMIZER_HOST', value: '0.0.0.0' },
        generated(gateway, 'GW_OPTIMIZER_TOKEN', 'optimizerToken'),
        generated(gateway, 'GW_ADMIN_TOKEN', 'adminToken'),
        generated(gateway, 'GW_CONTENT_KEY', 'contentKey'),
        database,
      ];
    case 'evidence':
      return [
        { name: 'GW_EVIDENCE_PORT', value: String(components.evidence.port) },
        { name: 'GW_EVIDENCE_HOST', value: '0.0.0.0' },
        generated(gateway, 'GW_ADMIN_TOKEN', 'adminToken'),
        database,
      ];
  }
}

/**
 * How the gateway's pods shut down: readiness turns 503 and the pod keeps serving for the delay (Service endpoints and
 * load balancers take a few seconds to stop sending), then in-flight calls get the timeout (a long answer streams for
 * minutes), then the deadline ends what still runs (`GW_DRAIN_TIMEOUT_MS`). Both are defaults a Gateway's `env` may
 * override; the pod's grace period follows whatever applies, so the kubelet never kills a pod mid-drain.
 */
const gatewayDrainDefaults = { GW_DRAIN_DELAY_MS: 5_000, GW_DRAIN_TIMEOUT_MS: 120_000 } as const;
// The gateway's own settle time after its deadline (`Lifecycle.shutdown`), plus headroom for the cleanups after it.
const drainSettleMs = 2_000;
const shutdownHeadroomSeconds = 5;

function drainEnv(spec: GatewaySpec, component: ComponentName): { env: EnvVar[]; graceSeconds: number | null } {
  if (component !== 'gateway') return { env: [], graceSeconds: null };
  const extra = spec.components.gateway.env ?? [];
  let totalMs = drainSettleMs;
  const env: EnvVar[] = [];
  for (const [name, fallback] of Object.entries(gatewayDrainDefaults)) {
    const set = extra.find((variable) => variable.name === name);
    // A value from a Secret is unknown here: the default stands in for it when sizing the grace period.
    const literal = set?.value !== undefined && /^\d+$/.test(set.value) ? Number(set.value) : undefined;
    totalMs += literal ?? fallback;
    if (!set) env.push({ name, value: String(fallback) });
  }
  return { env, graceSeconds: Math.ceil(totalMs / 1000) + shutdownHeadroomSeconds };
}

function extraEnv(spec: GatewaySpec, component: ComponentName): EnvVar[] {
  return (spec.components[component].env ?? []).map((variable) =>
    variable.secretKeyRef
      ? fromSecret(variable.name, variable.secretKeyRef)
      : { name: variable.name, value: variable.value ?? '' },
  );
}

const defaultRequests = { cpu: '100m', memory: '128Mi' };

/** Where a Prometheus that discovers pods by annotation scrapes a component (none for the evidence service). */
function scrapeAnnotations(spec: GatewaySpec, component: ComponentName): Record<string, string> {
  const { port, metricsPath } = components[component];
  if (metricsPath === null || spec.metrics?.scrapeAnnotations === false) return {};
  return { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': metricsPath };
}

/**
 * One component's Deployment: liveness and readiness probes on the component's own paths (`stack-names.ts`), rolling updates
 * that never drop below the desired count, a config-hash annotation that rolls pods when wiring or referenced
 * Secrets change, non-root with a read-only root filesystem, resource requests. Replicas are left to the HPA when
 * autoscaling is set.
 */
export function buildDeployment(gateway: GatewayResource, component: ComponentName, configHash: string): KubeObject {
  const { spec } = gateway;
  const settings = spec.components[component];
  const { port, probes } = components[component];
  const image = `${spec.image.repository}:${spec.version}`;
  const drain = drainEnv(spec, component);
  const probe = (path: string, periodSeconds: number) => ({
    httpGet: { path, port: 'http' },
    periodSeconds,
    timeoutSeconds: 2,
    failureThreshold: 3,
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: ownedMetadata(gateway, objectName(gateway, component), component),
    spec: {
      ...(settings.autoscaling ? {} : { replicas: desiredReplicas(spec, component) }),
      revisionHistoryLimit: 5,
      selector: { matchLabels: selectorLabels(gateway, component) },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template: {
        metadata: {
          labels: labels(gateway, component),
          annotations: { [configHashAnnotation]: configHash, ...scrapeAnnotations(spec, component) },
        },
        spec: {
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          ...(drain.graceSeconds === null ? {} : { terminationGracePeriodSeconds: drain.graceSeconds }),
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 65532,
            runAsGroup: 65532,
            fsGroup: 65532,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          ...(spec.image.pullSecrets ? { imagePullSecrets: spec.image.pullSecrets.map((name) => ({ name })) } : {}),
          containers: [
            {
              name: component,
              image,
              imagePullPolicy: spec.image.pullPolicy,
              // The image's entry point runs the service its first argument names.
              args: [component],
              ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }],
              env: [...componentEnv(gateway, component), ...drain.env, ...extraEnv(spec, component)],
              livenessProbe: probe(probes.liveness, 10),
              readinessProbe: probe(probes.readiness, 5),
              resources: {
                requests: settings.resources?.requests ?? defaultRequests,
                ...(settings.resources?.limits ? { limits: settings.resources.limits } : {}),
              },
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                runAsNonRoot: true,
                capabilities: { drop: ['ALL'] },
              },
              volumeMounts: [
                { name: 'data', mountPath: '/data' },
                { name: 'tmp', mountPath: '/tmp' },
              ],
            },
          ],
          volumes: [
            { name: 'data', emptyDir: { sizeLimit: '256Mi' } },
            { name: 'tmp', emptyDir: { sizeLimit: '256Mi' } },
          ],
        },
      },
    },
  };
}
