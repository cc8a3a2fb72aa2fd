import { crdDefinitions } from '@gw/contracts';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { chartTemplateOf, crdManifest, crdYaml } from './crd-yaml.js';
import type { SchemaNode } from './structural-schema.js';

/** Every string and list in a CRD is bounded (CEL cost estimates depend on it too). */
function unboundedNodes(node: SchemaNode, path: string): string[] {
  const found: string[] = [];
  const bounded = (key: string): boolean =>
    node[key] !== undefined || node.enum !== undefined || node.format === 'date-time';
  if (node.type === 'string' && !bounded('maxLength')) found.push(`${path} (string without maxLength)`);
  if (node.type === 'array' && !bounded('maxItems')) found.push(`${path} (array without maxItems)`);
  if (
    node.type === 'object' &&
    node['x-kubernetes-preserve-unknown-fields'] === true &&
    node.maxProperties === undefined
  ) {
    found.push(`${path} (free-form object without maxProperties)`);
  }
  for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, SchemaNode>))
    found.push(...unboundedNodes(child, `${path}.${name}`));
  if (node.items !== undefined) found.push(...unboundedNodes(node.items as SchemaNode, `${path}[]`));
  return found;
}

describe('CRD manifests', () => {
  it.each(crdDefinitions.map((definition) => [definition.kind, definition] as const))(
    '%s is namespaced, in category gw, with status subresource and kstatus conditions',
    (_kind, definition) => {
      const manifest = crdManifest(definition) as {
        spec: {
          scope: string;
          names: { categories: string[]; shortNames: string[] };
          versions: { name: string; subresources: unknown; schema: { openAPIV3Schema: SchemaNode } }[];
        };
      };
      expect(manifest.spec.scope).toBe('Namespaced');
      expect(manifest.spec.names.categories).toEqual(['gw']);
      expect(manifest.spec.names.shortNames.length).toBeGreaterThan(0);
      const [version] = manifest.spec.versions;
      expect(version?.name).toBe('v1alpha1');
      expect(version?.subresources).toEqual({ status: {} });
      const status = (version?.schema.openAPIV3Schema.properties as Record<string, SchemaNode>).status;
      const conditions = (status.properties as Record<string, SchemaNode>).conditions;
      expect(conditions['x-kubernetes-list-type']).toBe('map');
      expect(conditions['x-kubernetes-list-map-keys']).toEqual(['type']);
      expect((status.properties as Record<string, SchemaNode>).observedGeneration).toMatchObject({ type: 'integer' });
    },
  );

  it.each(crdDefinitions.map((definition) => [definition.kind, definition] as const))(
    '%s bounds every string, list and free-form map',
    (_kind, definition) => {
      const schema = (crdManifest(definition) as { spec: { versions: { schema: { openAPIV3Schema: SchemaNode } }[] } })
        .spec.versions[0].schema.openAPIV3Schema;
      const properties = schema.properties as Record<string, SchemaNode>;
      expect([...unboundedNodes(properties.spec, 'spec'), ...unboundedNodes(properties.status, 'status')]).toEqual([]);
    },
  );

  it('keeps short names unique across kinds', () => {
    const names = crdDefinitions.flatMap((definition) => [
      ...definition.shortNames,
      definition.plural,
      definition.singular,
    ]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('writes YAML that parses back to the manifest', () => {
    const [definition] = crdDefinitions;
    expect(parse(crdYaml(definition))).toEqual(crdManifest(definition));
  });

  it('adds the chart labels and keep annotation to the chart copy only', () => {
    const template = chartTemplateOf(crdYaml(crdDefinitions[0]));
    expect(template).toContain('helm.sh/resource-policy: keep');
    expect(template).toContain('{{- include "gw-crds.labels" . | nindent 4 }}');
  });
});
