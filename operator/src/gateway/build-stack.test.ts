import { gatewaySpec } from '@gw/contracts';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../kube/kube-api.js';
import { configHashAnnotation } from './build-deployment.js';
import { checkGateway, planStack } from './build-stack.js';
import { buildGeneratedSecrets } from './generated-secrets.js';
import type { GatewayResource } from './stack-names.js';

function gateway(spec: Record<string, unknown> = {}): GatewayResource {
  return {
    apiVersion: 'gw.dev/v1alpha1',
    kind: 'Gateway',
    metadata: { name: 'gw', namespace: 'team', uid: 'uid-gw', generation: 1 },
    spec: gatewaySpec.parse({
      image: { repository: 'ghcr.io/example/gw' },
      version: '1.10.353',
      publicUrl: 'https://gw.example.com',
      database: { urlSecretRef: { name: 'db', key: 'url' } },
      ...spec,
    }),
  };
}

const named = (objects: KubeObject[], kind: string) =>
  objects.filter((object) => object.kind === kind).map((object) => object.metadata.name);
type Container = {
  env: { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }[];
  securityContext: unknown;
  livenessProbe: { httpGet: { path: string } };
  readinessProbe: { httpGet: { path: string } };
  resources: unknown;
  image: string;
  command?: string[];
  args?: string[];
};
const podOf = (deployment: KubeObject) =>
  (
    deployment.spec as {
      template: {
        metadata: { annotations: Record<string, string> };
        spec: { containers: Container[]; securityContext: unknown };
      };
    }
  ).template;

describe('planStack', () => {
  it('runs the three services with Services and PodDisruptionBudgets, owned by the Gateway', () => {
    const plan = planStack(gateway(), {});
    expect(named(plan.apply, 'Deployment')).toEqual(['gw-gateway', 'gw-optimizer', 'gw-evidence']);
    expect(named(plan.apply, 'Service')).toEqual(['gw-gateway', 'gw-optimizer', 'gw-evidence']);
    expect(named(plan.apply, 'PodDisruptionBudget')).toHaveLength(3);
    expect(named(plan.apply, 'HorizontalPodAutoscaler')).toEqual([]);
    for (const object of plan.apply) {
      expect(object.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'gw.dev/v1alpha1',
          kind: 'Gateway',
          name: 'gw',
          uid: 'uid-gw',
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      expect(object.metadata.namespace).toBe('team');
    }
  });

  it('probes each service where it answers, runs non-root on a read-only root filesystem with requests', () => {
    const deployment = planStack(gateway(), {}).apply.find((object) => object.metadata.name === 'gw-gateway')!;
    const pod = podOf(deployment);
    const [container] = pod.spec.containers;
    expect(container.image).toBe('ghcr.io/example/gw:1.10.353');
    expect(container.livenessProbe.httpGet.path).toBe('/livez');
    expect(container.readinessProbe.httpGet.path).toBe('/');
    const probesOf = (name: string) => {
      const [other] = podOf(planStack(gateway(), {}).apply.find((object) => object.metadata.name === name)!).spec
        .containers;
      return [other.livenessProbe.httpGet.path, other.readinessProbe.httpGet.path];
    };
    // Each service is probed where it answers: the optimizer has its health report, the evidence service /readyz.
    expect(probesOf('gw-optimizer')).toEqual(['/health', '/health']);
    expect(probesOf('gw-evidence')).toEqual(['/livez', '/readyz']);
    // The component image's entry point picks the service from its first argument; no command overrides it.
    const invocationOf = (name: string) => {
      const [other] = podOf(planStack(gateway(), {}).apply.find((object) => object.metadata.name === name)!).spec
        .containers;
      return [other.image, other.command, other.args];
    };
    expect(['gw-gateway', 'gw-optimizer', 'gw-evidence'].map(invocationOf)).toEqual([
      ['ghcr.io/example/gw:1.10.353', undefined, ['gateway']],
      ['ghcr.io/example/gw:1.10.353', undefined, ['optimizer']],
      ['ghcr.io/example/gw:1.10.353', undefined, ['evidence']],
    ]);
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(container.resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' } });
    expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect((deployment.spec as { strategy: unknown }).strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 0, maxSurge: 1 },
    });
  });

  it('wires secrets by reference, never by value, and points the gateway at its optimizer and evidence service', () => {
    const deployment = planStack(gateway({ redis: { urlSecretRef: { name: 'redis', key: 'url' } } }), {}).apply.find(
      (object) => object.metadata.name === 'gw-gateway',
    )!;
    const env = Object.fromEntries(
      podOf(deployment).spec.containers[0].env.map((variable) => [
        variable.name,
        variable.value ?? variable.valueFrom?.secretKeyRef,
      ]),
    );
    expect(env).toMatchObject({
      GW_SPEND_DB_URL: { name: 'db', key: 'url' },
      GW_REDIS_URL: { name: 'redis', key: 'url' },
      GW_ADMIN_TOKEN: { name: 'gw-admin-token', key: 'token' },
      GW_KEYSTORE_KEY: { name: 'gw-keystore-key', key: 'key' },
      GW_OPTIMIZER_URL: 'http://gw-optimizer.team.svc:8088',
      GW_ENDPOINT_CONTROL_URL: 'http://gw-evidence.team.svc:8089',
    });
  });

  it('gives gateway pods a drain that outlasts a long stream, and a grace period that covers it', () => {
    const graceOf = (deployment: KubeObject) =>
      (podOf(deployment).spec as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds;
    const envOf = (deployment: KubeObject) =>
      Object.fromEntries(podOf(deployment).spec.containers[0].env.map((variable) => [variable.name, variable.value]));
    const byName = (objects: KubeObject[], name: string) => objects.find((object) => object.metadata.name === name)!;
    const defaults = planStack(gateway(), {}).apply;
    expect(envOf(byName(defaults, 'gw-gateway'))).toMatchObject({
      GW_DRAIN_DELAY_MS: '5000',
      GW_DRAIN_TIMEOUT_MS: '120000',
    });
    expect(graceOf(byName(defaults, 'gw-gateway'))).toBe(5 + 120 + 2 + 5);
    expect(graceOf(byName(defaults, 'gw-optimizer'))).toBeUndefined();

    const tuned = planStack(
      gateway({ components: { gateway: { env: [{ name: 'GW_DRAIN_TIMEOUT_MS', value: '600000' }] } } }),
      {},
    ).apply;
    const container = podOf(byName(tuned, 'gw-gateway')).spec.containers[0];
    expect(container.env.filter((variable) => variable.name === 'GW_DRAIN_TIMEOUT_MS')).toEqual([
      { name: 'GW_DRAIN_TIMEOUT_MS', value: '600000' },
    ]);
    expect(graceOf(byName(tuned, 'gw-gateway'))).toBe(5 + 600 + 2 + 5);
  });

  it('rolls pods when a referenced Secret changes, not otherwise', () => {
    const hash = (versions: Record<string, string>) =>
      podOf(planStack(gateway(), versions).apply[0]).metadata.annotations[configHashAnnotation];
    expect(hash({ db: '1' })).toBe(hash({ db: '1' }));
    expect(hash({ db: '1' })).not.toBe(hash({ db: '2' }));
  });

  it('hands replicas to an HPA when autoscaling is set and removes it when unset', () => {
    const autoscaled = planStack(
      gateway({ components: { optimizer: { autoscaling: { minReplicas: 2, maxReplicas: 5 } } } }),
      {},
    );
    const hpa = autoscaled.apply.find((object) => object.kind === 'HorizontalPodAutoscaler')!;
    expect(hpa.spec).toMatchObject({
      minReplicas: 2,
      maxReplicas: 5,
      scaleTargetRef: { kind: 'Deployment', name: 'gw-optimizer' },
    });
    expect(
      autoscaled.apply.find((object) => object.kind === 'Deployment' && object.metadata.name === 'gw-optimizer')!.spec,
    ).not.toHaveProperty('replicas');
    expect(
      planStack(gateway(), {})
        .remove.filter((ref) => ref.kind === 'HorizontalPodAutoscaler')
        .map((ref) => ref.name),
    ).toEqual(['gw-gateway', 'gw-optimizer', 'gw-evidence']);
  });

  it('tells Prometheus where to scrape: pod annotations by default, a ServiceMonitor when enabled, removed when disabled', () => {
    const annotationsOf = (plan: ReturnType<typeof planStack>, name: string) => {
      const { [configHashAnnotation]: _hash, ...rest } = podOf(
        plan.apply.find((object) => object.metadata.name === name)!,
      ).metadata.annotations;
      return rest;
    };
    const defaults = planStack(gateway(), {});
    expect(annotationsOf(defaults, 'gw-gateway')).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '8787',
      'prometheus.io/path': '/metrics',
    });
    expect(annotationsOf(defaults, 'gw-optimizer')).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '8088',
      'prometheus.io/path': '/metrics',
    });
    expect(annotationsOf(defaults, 'gw-evidence')).toEqual({});
    expect(named(defaults.apply, 'ServiceMonitor')).toEqual([]);
    expect(defaults.remove.filter((ref) => ref.kind === 'ServiceMonitor')).toEqual([]);

    const monitored = planStack(
      gateway({
        metrics: { scrapeAnnotations: false, serviceMonitor: { enabled: true, labels: { release: 'prometheus' } } },
      }),
      {},
    );
    expect(annotationsOf(monitored, 'gw-gateway')).toEqual({});
    const [monitor] = monitored.apply.filter((object) => object.kind === 'ServiceMonitor');
    expect(monitor).toMatchObject({
      apiVersion: 'monitoring.coreos.com/v1',
      metadata: {
        name: 'gw-metrics',
        namespace: 'team',
        labels: { release: 'prometheus', 'app.kubernetes.io/instance': 'gw' },
        ownerReferences: [{ kind: 'Gateway', name: 'gw' }],
      },
      spec: {
        selector: {
          matchLabels: { 'app.kubernetes.io/name': 'gw', 'app.kubernetes.io/instance': 'gw' },
          matchExpressions: [{ key: 'app.kubernetes.io/component', operator: 'In', values: ['gateway', 'optimizer'] }],
        },
        namespaceSelector: { matchNames: ['team'] },
        endpoints: [{ port: 'http', path: '/metrics', interval: '30s' }],
      },
    });
    // The Services it selects carry the labels and the port name it names.
    const service = monitored.apply.find(
      (object) => object.kind === 'Service' && object.metadata.name === 'gw-gateway',
    )!;
    expect(service.metadata.labels).toMatchObject({
      'app.kubernetes.io/name': 'gw',
      'app.kubernetes.io/instance': 'gw',
      'app.kubernetes.io/component': 'gateway',
    });
    expect((service.spec as { ports: { name: string }[] }).ports[0]?.name).toBe('http');

    const turnedOff = planStack(gateway({ metrics: { serviceMonitor: { enabled: false } } }), {});
    expect(turnedOff.remove.filter((ref) => ref.kind === 'ServiceMonitor')).toEqual([
      { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', name: 'gw-metrics', namespace: 'team' },
    ]);
    expect(() =>
      gatewaySpec.parse({
        image: { repository: 'r' },
        version: '1',
        publicUrl: 'https://gw.example.com',
        database: { urlSecretRef: { name: 'db', key: 'url' } },
        metrics: { serviceMonitor: { enabled: true, interval: 'often' } },
      }),
    ).toThrow(/interval/);
  });

  it('removes a disabled component', () => {
    const plan = planStack(gateway({ components: { evidence: { enabled: false } } }), {});
    expect(named(plan.apply, 'Deployment')).not.toContain('gw-evidence');
    expect(plan.remove.filter((ref) => ref.name === 'gw-evidence').map((ref) => ref.kind)).toEqual([
      'Deployment',
      'Service',
      'PodDisruptionBudget',
      'HorizontalPodAutoscaler',
    ]);
  });
});

describe('checkGateway', () => {
  it('refuses more than one gateway replica without Redis with a clear Stalled outcome', () => {
    expect(checkGateway(gateway({ components: { gateway: { replicas: 2 } } }))).toMatchObject({
      kind: 'stalled',
      reason: 'RedisRequired',
    });
    expect(
      checkGateway(gateway({ components: { gateway: { autoscaling: { minReplicas: 1, maxReplicas: 3 } } } })),
    ).toMatchObject({ reason: 'RedisRequired' });
    expect(
      checkGateway(
        gateway({ components: { gateway: { replicas: 2 } }, redis: { urlSecretRef: { name: 'r', key: 'url' } } }),
      ),
    ).toBeNull();
    expect(checkGateway(gateway())).toBeNull();
  });
});

describe('buildGeneratedSecrets', () => {
  it('generates admin and optimizer tokens, 64-hex keystore and content keys and an Ed25519 signing key', () => {
    const secrets = buildGeneratedSecrets(gateway());
    const value = (name: string) =>
      Object.values(secrets.find((secret) => secret.metadata.name === name)!.data as Record<string, string>).map(
        (encoded) => Buffer.from(encoded, 'base64').toString(),
      )[0];
    expect(secrets.map((secret) => secret.metadata.name)).toEqual([
      'gw-admin-token',
      'gw-optimizer-token',
      'gw-keystore-key',
      'gw-content-key',
      'gw-signing-key',
    ]);
    expect(value('gw-keystore-key')).toMatch(/^[0-9a-f]{64}$/);
    expect(value('gw-content-key')).toMatch(/^[0-9a-f]{64}$/);
    expect(value('gw-admin-token').length).toBeGreaterThanOrEqual(32);
    expect(value('gw-signing-key')).toContain('BEGIN PRIVATE KEY');
  });
});
