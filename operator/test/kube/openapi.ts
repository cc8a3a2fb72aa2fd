/**
 * The OpenAPI documents kube-apiserver serves and the standalone CRD server lacks: `/openapi/v2`, and in
 * `/openapi/v3` a document per served CRD group-version (the CRD server lists only its own group). kubectl reads
 * them on a plain `apply`: it validates fields on the server (strict, by default) once a resource's PATCH operation
 * declares the `fieldValidation` parameter, and otherwise falls back to a client-side check against `/openapi/v2`.
 * Schemas come from the CRDs themselves; the v2 document keeps the keywords Swagger 2.0 has (dropping `anyOf`,
 * `oneOf`, `not` and `nullable`, as kube-apiserver does for CRDs in v2).
 */
type Json = Record<string, unknown>;

const swaggerKeywords = new Set([
  '$ref',
  'type',
  'format',
  'title',
  'description',
  'default',
  'enum',
  'required',
  'properties',
  'items',
  'additionalProperties',
  'allOf',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'maxProperties',
  'minProperties',
  'readOnly',
  'example',
]);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One schema in Swagger 2.0's dialect; `properties` maps names to schemas, so its keys are kept as they are. */
export function toSwaggerSchema(schema: Json): Json {
  const converted: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!swaggerKeywords.has(key) && !key.startsWith('x-')) continue;
    if (key === '$ref' && typeof value === 'string')
      converted[key] = value.replace('#/components/schemas/', '#/definitions/');
    else if (key === 'properties' && isObject(value))
      converted[key] = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [
          name,
          isObject(property) ? toSwaggerSchema(property) : property,
        ]),
      );
    else if ((key === 'items' || key === 'additionalProperties') && isObject(value))
      converted[key] = toSwaggerSchema(value);
    else if (key === 'allOf' && Array.isArray(value))
      converted[key] = value.map((entry) => (isObject(entry) ? toSwaggerSchema(entry) : entry));
    else converted[key] = value;
  }
  return converted;
}

interface CrdList {
  items: {
    spec: {
      group: string;
      names: { kind: string; plural: string };
      scope: 'Namespaced' | 'Cluster';
      versions: { name: string; served: boolean; schema?: { openAPIV3Schema?: Json } }[];
    };
  }[];
}

interface Resource {
  gvk: { group: string; version: string; kind: string };
  /** `api/v1` or `apis/<group>/<version>`, as the v3 index names it. */
  groupVersionPath: string;
  itemPath: string;
  definitionName: string;
  schema: Json;
}

/** Every served CRD version under its real group (`realGroup` undoes the shadow groups of built-in kinds). */
export function crdResources(crds: CrdList, realGroup: (group: string) => string): Resource[] {
  return crds.items.flatMap(({ spec }) => {
    const group = realGroup(spec.group);
    const reversed = group === '' ? 'io.k8s.api.core' : group.split('.').reverse().join('.');
    return spec.versions
      .filter((version) => version.served)
      .map((version) => {
        const groupVersionPath = group === '' ? `api/${version.name}` : `apis/${group}/${version.name}`;
        const collection =
          spec.scope === 'Namespaced'
            ? `/${groupVersionPath}/namespaces/{namespace}/${spec.names.plural}`
            : `/${groupVersionPath}/${spec.names.plural}`;
        return {
          gvk: { group, version: version.name, kind: spec.names.kind },
          groupVersionPath,
          itemPath: `${collection}/{name}`,
          definitionName: `${reversed}.${version.name}.${spec.names.kind}`,
          schema: version.schema?.openAPIV3Schema ?? { type: 'object' },
        };
      });
  });
}

const patchOperation = (resource: Resource, fieldValidation: Json) => ({
  patch: {
    'x-kubernetes-action': 'patch',
    'x-kubernetes-group-version-kind': resource.gvk,
    parameters: [{ name: 'fieldValidation', in: 'query', ...fieldValidation }],
    responses: { '200': { description: 'OK' } },
  },
});

export function openApiV2(resources: Resource[]): Json {
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths: Object.fromEntries(
      resources.map((resource) => [resource.itemPath, patchOperation(resource, { type: 'string', uniqueItems: true })]),
    ),
    definitions: Object.fromEntries(
      resources.map((resource) => [
        resource.definitionName,
        { ...toSwaggerSchema(resource.schema), 'x-kubernetes-group-version-kind': [resource.gvk] },
      ]),
    ),
  };
}

/** The `/openapi/v3` index entries for the CRD group-versions, added to the server's own. */
export function openApiV3Index(resources: Resource[]): Record<string, { serverRelativeURL: string }> {
  return Object.fromEntries(
    resources.map((resource) => [
      resource.groupVersionPath,
      { serverRelativeURL: `/openapi/v3/${resource.groupVersionPath}` },
    ]),
  );
}

/** The `/openapi/v3/<group-version path>` document, or null when no CRD serves that group-version. */
export function openApiV3(resources: Resource[], groupVersionPath: string): Json | null {
  const served = resources.filter((resource) => resource.groupVersionPath === groupVersionPath);
  if (served.length === 0) return null;
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths: Object.fromEntries(
      served.map((resource) => [
        resource.itemPath,
        patchOperation(resource, { schema: { type: 'string', uniqueItems: true } }),
      ]),
    ),
    components: {
      schemas: Object.fromEntries(
        served.map((resource) => [
          resource.definitionName,
          { ...resource.schema, 'x-kubernetes-group-version-kind': [resource.gvk] },
        ]),
      ),
    },
  };
}
