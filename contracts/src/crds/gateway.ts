import { z } from 'zod';
import {
  ageColumn,
  baseStatusShape,
  httpsUrl,
  objectName,
  readyColumn,
  reasonColumn,
  secretKeyRef,
  withRules,
  type CrdDefinition,
} from './common.js';

/**
 * Gateway: the stack the operator runs (gateway, optimizer and evidence Deployments with Services, generated
 * Secrets, a PodDisruptionBudget and autoscalers). ARCHITECTURE.md "Operator".
 */

// Resource quantities as Kubernetes writes them ("500m", "1Gi", 2).
const quantity = z
  .union([z.int().min(0).max(1_000_000), z.string().max(32).regex(/^[0-9]+(\.[0-9]+)?(m|[kMGTPE]i?)?$/)])
  .meta({ 'x-kubernetes-int-or-string': true });

const resourceList = z.object({ cpu: quantity.optional(), memory: quantity.optional() }).strict();

const resources = z
  .object({ requests: resourceList.optional(), limits: resourceList.optional() })
  .strict()
  .describe('Container resource requests and limits; requests default to 100m CPU and 128Mi memory.');

const autoscaling = withRules(
  z
    .object({
      minReplicas: z.int().min(1).max(100),
      maxReplicas: z.int().min(1).max(100),
      targetCPUUtilizationPercentage: z.int().min(1).max(100).default(80),
    })
    .strict()
    .describe('Run a HorizontalPodAutoscaler instead of a fixed replica count.'),
  [{ rule: 'self.minReplicas <= self.maxReplicas', message: 'minReplicas must not exceed maxReplicas', fieldPath: '.minReplicas' }],
);

/** Variables the operator owns; an extra env entry may not shadow them (they carry generated secrets and wiring). */
export const operatorManagedEnv = [
  'GW_PORT',
  'GW_ADMIN_TOKEN',
  'GW_SPEND_DB_URL',
  'GW_REDIS_URL',
  'GW_KEYSTORE_KEY',
  'GW_OPTIMIZER_URL',
  'GW_OPTIMIZER_TOKEN',
  'GW_CONTENT_KEY',
  'GW_ENDPOINT_CONTROL_URL',
] as const;

const envVar = withRules(
  z
    .object({
      name: z.string().min(1).max(128).regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
      value: z.string().max(4096).optional(),
      secretKeyRef: secretKeyRef.optional(),
    })
    .strict(),
  [
    { rule: 'has(self.value) != has(self.secretKeyRef)', message: 'set exactly one of value or secretKeyRef' },
    {
      rule: `!(self.name in [${operatorManagedEnv.map((name) => `'${name}'`).join(', ')}])`,
      message: 'this variable is managed by the operator',
      fieldPath: '.name',
    },
  ],
);

const componentBase = z
  .object({
    enabled: z.boolean().default(true).describe('Run this component. The gateway itself cannot be disabled.'),
    replicas: z.int().min(0).max(100).optional().describe('Fixed replica count (default 1); excludes autoscaling.'),
    autoscaling: autoscaling.optional(),
    resources: resources.optional(),
    env: z
      .array(envVar)
      .max(64)
      .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] })
      .optional()
      .describe('Extra environment variables; operator-managed GW_* wiring cannot be overridden.'),
  })
  .strict();

const replicasOrAutoscaling = {
  rule: '!(has(self.replicas) && has(self.autoscaling))',
  message: 'set replicas or autoscaling, not both',
};
const component = withRules(componentBase, [replicasOrAutoscaling]);
const gatewayComponent = withRules(componentBase, [
  replicasOrAutoscaling,
  { rule: 'self.enabled', message: 'the gateway component cannot be disabled', fieldPath: '.enabled' },
]);

export const gatewaySpec = z
  .object({
    image: z
      .object({
        repository: z
          .string()
          .min(1)
          .max(255)
          .regex(/^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)*$/)
          .describe('Image repository; one image runs all three services.'),
        pullPolicy: z.enum(['Always', 'IfNotPresent', 'Never']).default('IfNotPresent'),
        pullSecrets: z.array(objectName).max(8).optional().describe('Names of image pull Secrets.'),
      })
      .strict(),
    version: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/)
      .describe('Image tag, the product version (for example "1.10.353").'),
    components: z
      .object({
        gateway: gatewayComponent.default({ enabled: true }),
        optimizer: component.default({ enabled: true }),
        evidence: component.default({ enabled: true }),
      })
      .strict()
      .default({ gateway: { enabled: true }, optimizer: { enabled: true }, evidence: { enabled: true } }),
    database: z
      .object({ urlSecretRef: secretKeyRef.describe('Secret key holding the Postgres URL (GW_SPEND_DB_URL).') })
      .strict(),
    redis: z
      .object({ urlSecretRef: secretKeyRef.describe('Secret key holding the Redis URL (GW_REDIS_URL).') })
      .strict()
      .optional()
      .describe('Required for more than one gateway replica: limits and counters are shared through Redis.'),
    publicUrl: httpsUrl.describe('The URL developers and SDKs use to reach the gateway.'),
    metrics: z
      .object({
        scrapeAnnotations: z
          .boolean()
          .default(true)
          .describe('prometheus.io/scrape, /port and /path annotations on the gateway and optimizer pods, for a Prometheus that discovers pods by annotation.'),
        serviceMonitor: z
          .object({
            enabled: z.boolean().describe('Create a Prometheus Operator ServiceMonitor (its CRD must be installed); false removes one the operator created.'),
            interval: z.string().max(8).regex(/^[1-9][0-9]*(s|m)$/).default('30s').describe('Scrape interval, e.g. "30s".'),
            labels: z.record(z.string(), z.string().max(63)).meta({ maxProperties: 16 }).optional().describe('Extra labels, e.g. the release label your Prometheus selects ServiceMonitors by.'),
          })
          .strict()
          .optional()
          .describe('A ServiceMonitor for the gateway and optimizer Services (both serve /metrics).'),
      })
      .strict()
      .default({ scrapeAnnotations: true })
      .describe('How Prometheus finds the stack\'s metrics.'),
  })
  .strict();

export const gatewayStatus = z
  .object({
    ...baseStatusShape,
    adminKeySecretName: objectName.optional().describe('Secret holding the operator\'s own scoped aak_ key.'),
    serviceUrl: z.string().max(2048).optional().describe('In-cluster URL of the gateway Service.'),
  })
  .strict();

export type GatewaySpec = z.infer<typeof gatewaySpec>;
export type GatewayStatus = z.infer<typeof gatewayStatus>;

export const gatewayCrd: CrdDefinition<typeof gatewaySpec, typeof gatewayStatus> = {
  kind: 'Gateway',
  plural: 'gateways',
  singular: 'gateway',
  shortNames: ['gwg'],
  description: 'A gw stack: the gateway, optimizer and evidence services the operator runs as Deployments.',
  spec: gatewaySpec,
  status: gatewayStatus,
  printerColumns: [
    { name: 'Version', type: 'string', jsonPath: '.spec.version' },
    readyColumn,
    reasonColumn,
    { name: 'URL', type: 'string', jsonPath: '.spec.publicUrl', priority: 1 },
    ageColumn,
  ],
};
