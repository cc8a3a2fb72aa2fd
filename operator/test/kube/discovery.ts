import { builtinGroups, builtinKinds, shadowSuffix, type BuiltinKind } from './builtin-kinds.js';

/** Legacy discovery documents for the built-in kinds, as a kube-apiserver serves them. */

function resourceEntries(kind: BuiltinKind): Record<string, unknown>[] {
  const main = {
    name: kind.plural,
    singularName: kind.singular,
    namespaced: kind.clusterScoped !== true,
    kind: kind.kind,
    verbs: kind.verbs,
    ...(kind.shortNames.length > 0 ? { shortNames: kind.shortNames } : {}),
  };
  const subresources = Object.keys(kind.subresources).map((subresource) => ({
    name: `${kind.plural}/${subresource}`,
    singularName: '',
    namespaced: kind.clusterScoped !== true,
    kind: subresource === 'scale' ? 'Scale' : kind.kind,
    ...(subresource === 'scale' ? { group: 'autoscaling', version: 'v1' } : {}),
    verbs: ['get', 'patch', 'update'],
  }));
  return [main, ...subresources];
}

export function apiVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export function apiResourceList(group: string, version: string): Record<string, unknown> | undefined {
  const kinds = builtinKinds.filter((kind) => kind.group === group && kind.version === version);
  if (kinds.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group === '' ? version : `${group}/${version}`,
    resources: kinds.flatMap(resourceEntries),
  };
}

export function apiGroup(group: string): Record<string, unknown> | undefined {
  const versions = builtinGroups().get(group);
  if (versions === undefined || group === '') return undefined;
  const entries = versions.map((version) => ({ groupVersion: `${group}/${version}`, version }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions: entries, preferredVersion: entries[0] };
}

interface CrdList {
  items?: { spec: { group: string; versions: { name: string; served: boolean }[] } }[];
}

/**
 * The server's own groups (apiextensions and every CRD group except the shadow ones) plus the built-in ones. The CRD
 * server alone does not serve /apis (the aggregator does in a cluster), so the list is built from the CRDs.
 */
export function mergedGroupList(crds: CrdList): Record<string, unknown> {
  const versionsByGroup = new Map<string, string[]>([['apiextensions.k8s.io', ['v1']]]);
  for (const crd of crds.items ?? []) {
    if (crd.spec.group.endsWith(`.${shadowSuffix}`)) continue;
    const versions = versionsByGroup.get(crd.spec.group) ?? [];
    for (const version of crd.spec.versions)
      if (version.served && !versions.includes(version.name)) versions.push(version.name);
    versionsByGroup.set(crd.spec.group, versions);
  }
  const own = [...versionsByGroup].map(([name, versions]) => {
    const entries = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
    return { name, versions: entries, preferredVersion: entries[0] };
  });
  const builtin = [...builtinGroups().keys()].filter((group) => group !== '').map((group) => apiGroup(group));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: [...builtin, ...own] };
}
