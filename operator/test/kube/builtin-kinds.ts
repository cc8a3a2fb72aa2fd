/**
 * The built-in kinds the operator uses, stored in the CRD server as CRDs of the same shape. Kubernetes refuses CRD
 * groups without a dot ("", apps, policy, autoscaling), so each is stored under a shadow group
 * (`<group>.builtin.gw-test`) and the proxy serves it under its real group and version.
 */

export const shadowSuffix = 'builtin.gw-test';

export interface BuiltinKind {
  /** Real group ("" for core). */
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  subresources: Record<string, unknown>;
  verbs: string[];
  /** Cluster-scoped kinds (ClusterRole); everything else is namespaced. */
  clusterScoped?: boolean;
  /** Structural schema; unknown fields are kept, as the real types have far more fields than we model. */
  schema: Record<string, unknown>;
}

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

const open = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

function withSpecAndStatus(
  spec: Record<string, unknown> = {},
  status: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
    properties: {
      spec: { ...open, properties: spec },
      status: { ...open, properties: status },
    },
  };
}

const containerList = {
  type: 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['name'],
  items: { ...open, required: ['name'], properties: { name: { type: 'string' } } },
};

/** The kinds the operator itself reads and writes. */
const operatorKinds: BuiltinKind[] = [
  {
    group: '',
    version: 'v1',
    kind: 'Secret',
    plural: 'secrets',
    singular: 'secret',
    shortNames: [],
    subresources: {},
    verbs: allVerbs,
    schema: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        data: { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
        type: { type: 'string' },
        immutable: { type: 'boolean' },
      },
    },
  },
  {
    group: '',
    version: 'v1',
    kind: 'ConfigMap',
    plural: 'configmaps',
    singular: 'configmap',
    shortNames: ['cm'],
    subresources: {},
    verbs: allVerbs,
    schema: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        data: { type: 'object', additionalProperties: { type: 'string' } },
        binaryData: { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
      },
    },
  },
  {
    group: '',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    singular: 'event',
    shortNames: ['ev'],
    subresources: {},
    verbs: allVerbs,
    schema: open,
  },
  {
    group: '',
    version: 'v1',
    kind: 'Service',
    plural: 'services',
    singular: 'service',
    shortNames: ['svc'],
    subresources: { status: {} },
    verbs: allVerbs,
    schema: withSpecAndStatus({
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port', 'protocol'],
        items: {
          ...open,
          required: ['port'],
          properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } },
        },
      },
    }),
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    singular: 'deployment',
    shortNames: ['deploy'],
    subresources: {
      status: {},
      scale: {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        labelSelectorPath: '.status.selector',
      },
    },
    verbs: allVerbs,
    schema: withSpecAndStatus(
      {
        replicas: { type: 'integer' },
        template: {
          ...open,
          properties: { spec: { ...open, properties: { containers: containerList, initContainers: containerList } } },
        },
      },
      { replicas: { type: 'integer' }, selector: { type: 'string' } },
    ),
  },
  {
    group: 'policy',
    version: 'v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    singular: 'poddisruptionbudget',
    shortNames: ['pdb'],
    subresources: { status: {} },
    verbs: allVerbs,
    schema: withSpecAndStatus(),
  },
  {
    group: 'autoscaling',
    version: 'v2',
    kind: 'HorizontalPodAutoscaler',
    plural: 'horizontalpodautoscalers',
    singular: 'horizontalpodautoscaler',
    shortNames: ['hpa'],
    subresources: { status: {} },
    verbs: allVerbs,
    schema: withSpecAndStatus(),
  },
  {
    group: 'coordination.k8s.io',
    version: 'v1',
    kind: 'Lease',
    plural: 'leases',
    singular: 'lease',
    shortNames: [],
    subresources: {},
    verbs: allVerbs,
    schema: withSpecAndStatus(),
  },
];

/** Kinds a Helm chart renders besides the operator's own: stored the same way so charts dry-run apply. */
function plain(group: string, version: string, kind: string, plural: string, clusterScoped = false): BuiltinKind {
  return {
    group,
    version,
    kind,
    plural,
    singular: kind.toLowerCase(),
    shortNames: [],
    subresources: {},
    verbs: allVerbs,
    schema: open,
    clusterScoped,
  };
}

export const builtinKinds: BuiltinKind[] = [
  ...operatorKinds,
  plain('', 'v1', 'ServiceAccount', 'serviceaccounts'),
  plain('rbac.authorization.k8s.io', 'v1', 'Role', 'roles'),
  plain('rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings'),
  plain('rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', true),
  plain('rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', true),
  plain('networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies'),
];

export function shadowGroupOf(group: string): string {
  return `${group === '' ? 'core' : group}.${shadowSuffix}`;
}

export function realApiVersion(kind: Pick<BuiltinKind, 'group' | 'version'>): string {
  return kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
}

export function shadowApiVersion(kind: Pick<BuiltinKind, 'group' | 'version'>): string {
  return `${shadowGroupOf(kind.group)}/${kind.version}`;
}

/** The CRD that stores one built-in kind. */
export function shadowCrd(kind: BuiltinKind): Record<string, unknown> {
  const group = shadowGroupOf(kind.group);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${kind.plural}.${group}` },
    spec: {
      group,
      names: {
        kind: kind.kind,
        listKind: `${kind.kind}List`,
        plural: kind.plural,
        singular: kind.singular,
        shortNames: kind.shortNames,
      },
      scope: kind.clusterScoped === true ? 'Cluster' : 'Namespaced',
      versions: [
        {
          name: kind.version,
          served: true,
          storage: true,
          subresources: kind.subresources,
          schema: { openAPIV3Schema: kind.schema },
        },
      ],
    },
  };
}

export function findBuiltin(group: string, version: string, plural: string): BuiltinKind | undefined {
  return builtinKinds.find((kind) => kind.group === group && kind.version === version && kind.plural === plural);
}

export function builtinGroups(): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const kind of builtinKinds) {
    const versions = groups.get(kind.group) ?? [];
    if (!versions.includes(kind.version)) versions.push(kind.version);
    groups.set(kind.group, versions);
  }
  return groups;
}
