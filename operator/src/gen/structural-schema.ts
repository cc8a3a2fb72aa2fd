import { z } from 'zod';

/**
 * Turns zod 4's JSON Schema (draft 2020-12) into a Kubernetes structural OpenAPI v3 schema: every node typed, no
 * `$ref`, no `anyOf` except nullable and int-or-string, no `additionalProperties: false` (pruning does that job),
 * `const` as a one-value enum, boolean `exclusiveMinimum`. Anything the API server would refuse throws here, at
 * generation time, with the path of the offending node.
 */

export type SchemaNode = { [key: string]: unknown };

const safeIntegerBound = Number.MAX_SAFE_INTEGER;

// Keys in the order a reader expects them; the rest follow alphabetically.
const keyOrder = [
  'description',
  'type',
  'format',
  'enum',
  'default',
  'nullable',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'anyOf',
  'items',
  'properties',
  'additionalProperties',
  'required',
];

export class StructuralSchemaError extends Error {
  constructor(path: string, problem: string) {
    super(`${path || '<root>'}: ${problem}`);
    this.name = 'StructuralSchemaError';
  }
}

export function structuralSchemaOf(schema: z.ZodType): SchemaNode {
  const json = z.toJSONSchema(schema, { io: 'input', reused: 'inline', cycles: 'throw', unrepresentable: 'throw' });
  return toStructural(json, '');
}

function isEmptySchema(node: SchemaNode): boolean {
  return Object.keys(node).filter((key) => key !== 'description').length === 0;
}

function asNode(value: unknown, path: string): SchemaNode {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StructuralSchemaError(path, 'expected a schema object');
  }
  return value as SchemaNode;
}

/** `z.unknown()` (an empty schema) keeps whatever the user wrote. */
function preserveUnknown(node: SchemaNode): SchemaNode {
  const out: SchemaNode = { 'x-kubernetes-preserve-unknown-fields': true };
  if (typeof node.description === 'string') out.description = node.description;
  return out;
}

function collapseAnyOf(node: SchemaNode, path: string): SchemaNode {
  const branches = (node.anyOf as unknown[]).map((branch, index) => asNode(branch, `${path}.anyOf[${index}]`));
  const { anyOf: _anyOf, ...rest } = node;
  if (node['x-kubernetes-int-or-string'] === true) {
    // Kubernetes' own shape for quantities: the anyOf pair, the string pattern lifted to the node.
    const stringBranch = branches.find((branch) => branch.type === 'string');
    const out: SchemaNode = { ...rest, anyOf: [{ type: 'integer' }, { type: 'string' }] };
    if (stringBranch?.pattern !== undefined) out.pattern = stringBranch.pattern;
    return out;
  }
  const nonNull = branches.filter((branch) => branch.type !== 'null');
  if (branches.length === 2 && nonNull.length === 1) {
    return { ...rest, ...nonNull[0], nullable: true };
  }
  throw new StructuralSchemaError(path, 'anyOf is only supported for nullable and x-kubernetes-int-or-string');
}

function normaliseKeywords(node: SchemaNode, path: string): SchemaNode {
  const out: SchemaNode = { ...node };
  delete out.$schema;
  delete out.propertyNames; // keys of a map are strings in Kubernetes anyway
  if (out.$ref !== undefined || out.$defs !== undefined)
    throw new StructuralSchemaError(path, '$ref/$defs are not structural');
  for (const keyword of ['oneOf', 'allOf', 'not', 'if', 'then', 'else', 'patternProperties']) {
    if (out[keyword] !== undefined) throw new StructuralSchemaError(path, `${keyword} is not supported`);
  }
  if (out.const !== undefined) {
    out.enum = [out.const];
    delete out.const;
  }
  for (const [exclusive, inclusive] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[exclusive] === 'number') {
      out[inclusive] = out[exclusive];
      out[exclusive] = true;
    }
  }
  if (out.type === 'integer') {
    // zod's z.int() without bounds emits the safe-integer range; that says nothing to a reader.
    if (out.minimum === -safeIntegerBound) delete out.minimum;
    if (out.maximum === safeIntegerBound) delete out.maximum;
  }
  return out;
}

function convertChildren(node: SchemaNode, path: string): SchemaNode {
  const out: SchemaNode = { ...node };
  if (out.properties !== undefined) {
    const properties = asNode(out.properties, `${path}.properties`);
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, child]) => [
        name,
        toStructural(asNode(child, `${path}.${name}`), `${path}.${name}`),
      ]),
    );
  }
  if (out.additionalProperties === false) {
    delete out.additionalProperties;
  } else if (out.additionalProperties !== undefined) {
    const additional = asNode(out.additionalProperties, `${path}.additionalProperties`);
    if (isEmptySchema(additional)) {
      delete out.additionalProperties;
      out['x-kubernetes-preserve-unknown-fields'] = true;
    } else {
      if (out.properties !== undefined)
        throw new StructuralSchemaError(path, 'properties and additionalProperties are exclusive');
      out.additionalProperties = toStructural(additional, `${path}[*]`);
    }
  }
  if (out.items !== undefined) out.items = toStructural(asNode(out.items, `${path}[]`), `${path}[]`);
  return out;
}

function ordered(node: SchemaNode): SchemaNode {
  const rank = (key: string): number => {
    const index = keyOrder.indexOf(key);
    return index === -1 ? keyOrder.length : index;
  };
  const keys = Object.keys(node).sort((left, right) => rank(left) - rank(right) || left.localeCompare(right));
  return Object.fromEntries(keys.map((key) => [key, node[key]]));
}

export function toStructural(input: SchemaNode, path: string): SchemaNode {
  if (isEmptySchema(input)) return preserveUnknown(input);
  let node = normaliseKeywords(input, path);
  if (node.anyOf !== undefined) node = collapseAnyOf(node, path);
  node = convertChildren(node, path);
  const typed =
    typeof node.type === 'string' ||
    node['x-kubernetes-preserve-unknown-fields'] === true ||
    node['x-kubernetes-int-or-string'] === true;
  if (!typed) throw new StructuralSchemaError(path, 'every node needs a type');
  if (Array.isArray(node.type)) throw new StructuralSchemaError(path, 'type must be a single name');
  return ordered(node);
}
