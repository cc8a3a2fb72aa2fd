import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { crdDefinitions } from '@gw/contracts';
import type { V1PodSpec } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crdManifest } from '../src/gen/crd-yaml.js';
import { ensureKubeTools } from './kube/binaries.js';
import { realApiVersion, builtinKinds } from './kube/builtin-kinds.js';
import { installGwCrds } from './kube/gw-crds.js';
import { kubeRequest } from './kube/kube-request.js';
import { startKubeTestServer, type KubeTestServer } from './kube/kube-test-server.js';

// Issue 9 item 5: `helm lint --strict`, `helm template`, and the rendered manifests applied to the test API server
// with a server-side dry run.

const run = promisify(execFile);
const chartsDir = fileURLToPath(new URL('../../charts/', import.meta.url));
const namespace = 'gw-system';

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  [key: string]: unknown;
}

let helm: string;

async function template(chart: string, ...setValues: string[]): Promise<Manifest[]> {
  const args = [
    'template',
    'release',
    `${chartsDir}${chart}`,
    '--namespace',
    namespace,
    ...setValues.flatMap((value) => ['--set', value]),
  ];
  const { stdout } = await run(helm, args, { maxBuffer: 32 * 1024 * 1024 });
  return parseAllDocuments(stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

function byKind(manifests: Manifest[], kind: string): Manifest[] {
  return manifests.filter((manifest) => manifest.kind === kind);
}

/** The path a server-side apply of this manifest goes to (every kind here is built in, a CRD, or a gw kind). */
function applyPath(manifest: Manifest): string {
  const [group, version] = manifest.apiVersion.includes('/')
    ? manifest.apiVersion.split('/')
    : ['', manifest.apiVersion];
  const prefix = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const builtin = builtinKinds.find(
    (kind) => realApiVersion(kind) === manifest.apiVersion && kind.kind === manifest.kind,
  );
  const plural =
    builtin?.plural ??
    (manifest.kind === 'CustomResourceDefinition' ? 'customresourcedefinitions' : `${manifest.kind.toLowerCase()}s`);
  const clusterScoped = builtin?.clusterScoped === true || manifest.kind === 'CustomResourceDefinition';
  const scope = clusterScoped ? '' : `/namespaces/${manifest.metadata.namespace ?? namespace}`;
  return `${prefix}${scope}/${plural}/${manifest.metadata.name}?fieldManager=helm&dryRun=All&fieldValidation=Strict`;
}

beforeAll(async () => {
  ({ helm } = await ensureKubeTools());
});

describe('helm charts', () => {
  it.each(['gw-crds', 'gw-operator'])('%s passes helm lint --strict', async (chart) => {
    const { stdout } = await run(helm, ['lint', '--strict', `${chartsDir}${chart}`]);
    expect(stdout).toContain('0 chart(s) failed');
  });

  it('gw-crds renders the generated CRDs, kept on uninstall by default', async () => {
    const crds = await template('gw-crds');
    expect(crds.map((crd) => crd.metadata.name).sort()).toEqual(
      crdDefinitions.map((definition) => `${definition.plural}.gw.dev`).sort(),
    );
    for (const definition of crdDefinitions) {
      const rendered = crds.find((crd) => crd.metadata.name === `${definition.plural}.gw.dev`)!;
      expect(rendered.spec).toEqual((crdManifest(definition) as Manifest).spec);
      expect(rendered.metadata.annotations).toEqual({ 'helm.sh/resource-policy': 'keep' });
      expect(rendered.metadata.labels).toMatchObject({
        'app.kubernetes.io/managed-by': 'Helm',
        'app.kubernetes.io/part-of': 'gw',
      });
    }
    const notKept = await template('gw-crds', 'keep=false');
    expect(notKept[0]?.metadata.annotations).toBeUndefined();
  });

  it('gw-operator defaults are secure: non-root, RuntimeDefault seccomp, no capabilities, read-only root', async () => {
    const [deployment] = byKind(await template('gw-operator'), 'Deployment');
    const pod = (deployment as unknown as { spec: { template: { spec: V1PodSpec } } }).spec.template.spec;
    const container = pod.containers[0];
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(container.resources?.requests).toEqual({ cpu: '50m', memory: '128Mi' });
    expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
  });

  it('gw-operator grants cluster-wide RBAC by default and namespaced Roles when watchNamespaces is set', async () => {
    const clusterWide = await template('gw-operator');
    expect(byKind(clusterWide, 'ClusterRole')).toHaveLength(1);
    const rules = (
      byKind(clusterWide, 'ClusterRole')[0] as unknown as { rules: { resources: string[]; verbs: string[] }[] }
    ).rules;
    const secrets = rules.find((rule) => rule.resources.includes('secrets'))!;
    expect(secrets.verbs).not.toContain('delete');
    const scoped = await template('gw-operator', 'watchNamespaces={team-a,team-b}');
    expect(byKind(scoped, 'ClusterRole')).toHaveLength(0);
    expect(
      byKind(scoped, 'Role')
        .map((role) => role.metadata.namespace)
        .sort(),
    ).toEqual([namespace, 'team-a', 'team-b']);
  });

  it('gw-operator toggles ServiceMonitor, PrometheusRule, NetworkPolicy and the PDB', async () => {
    const defaults = await template('gw-operator');
    expect(defaults.map((manifest) => manifest.kind)).not.toEqual(expect.arrayContaining(['ServiceMonitor']));
    expect(byKind(defaults, 'PodDisruptionBudget')).toHaveLength(1);
    const all = await template(
      'gw-operator',
      'metrics.serviceMonitor.enabled=true',
      'metrics.prometheusRule.enabled=true',
      'networkPolicy.enabled=true',
      'pdb.enabled=false',
    );
    expect(byKind(all, 'ServiceMonitor')).toHaveLength(1);
    expect(byKind(all, 'NetworkPolicy')).toHaveLength(1);
    expect(byKind(all, 'PodDisruptionBudget')).toHaveLength(0);
    expect(JSON.stringify(byKind(all, 'PrometheusRule')[0])).toContain('{{ $labels.kind }}');
    expect(byKind(await template('gw-operator', 'replicaCount=1'), 'PodDisruptionBudget')).toHaveLength(0);
  });

  it('gw-operator values.schema.json refuses weakening the security context and unknown values', async () => {
    await expect(template('gw-operator', 'securityContext.readOnlyRootFilesystem=false')).rejects.toThrow(
      /readOnlyRootFilesystem/,
    );
    await expect(template('gw-operator', 'replicas=3')).rejects.toThrow(/Additional property replicas is not allowed/);
  });

  it('the README ships an Argo CD health check for every kind', async () => {
    const readme = await readFile(`${chartsDir}gw-operator/README.md`, 'utf8');
    for (const definition of crdDefinitions)
      expect(readme).toContain(`resource.customizations.health.gw.dev_${definition.kind}: |`);
  });
});

describe('rendered charts against the test API server (server-side dry run)', () => {
  let server: KubeTestServer;
  beforeAll(async () => {
    server = await startKubeTestServer();
    await installGwCrds(server.kubeConfig);
    // The Prometheus Operator's CRDs, as a cluster that enables the ServiceMonitor toggle has them.
    for (const [kind, plural] of [
      ['ServiceMonitor', 'servicemonitors'],
      ['PrometheusRule', 'prometheusrules'],
    ] as const) {
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `${plural}.monitoring.coreos.com` },
        spec: {
          group: 'monitoring.coreos.com',
          scope: 'Namespaced',
          names: { kind, plural, listKind: `${kind}List`, singular: kind.toLowerCase() },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          ],
        },
      };
      const response = await kubeRequest(
        server.kubeConfig,
        'POST',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        crd,
      );
      expect(response.status, response.text).toBe(201);
    }
  }, 15 * 60_000);
  afterAll(async () => server?.stop());

  it.each([
    ['gw-crds', []],
    [
      'gw-operator',
      ['metrics.serviceMonitor.enabled=true', 'metrics.prometheusRule.enabled=true', 'networkPolicy.enabled=true'],
    ],
    ['gw-operator', ['watchNamespaces={team-a}']],
  ] as const)('%s %j applies cleanly', async (chart, values) => {
    const manifests = await template(chart, ...values);
    for (const manifest of manifests) {
      await expect
        .poll(
          async () => {
            const response = await kubeRequest(
              server.kubeConfig,
              'PATCH',
              applyPath(manifest),
              manifest,
              'application/apply-patch+yaml',
            );
            return `${response.status} ${manifest.kind}/${manifest.metadata.name}${response.status >= 300 ? ` ${response.text}` : ''}`;
          },
          { timeout: 10_000 },
        )
        .toMatch(/^20[01] /);
    }
  });
});
