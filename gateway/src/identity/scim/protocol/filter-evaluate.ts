import { findAttribute, keyOf, type AttributeDefinition, type ResourceSchema } from './attribute-schema.js';
import type { ComparisonOperator, FilterPath, FilterValue, ScimFilter } from './filter-ast.js';
import { invalidFilter } from './filter-tokens.js';

/** A SCIM resource as rendered to the client (the JSON a GET answers). */
export type ScimResource = Readonly<Record<string, unknown>>;
export type ResourceMatcher = (resource: ScimResource) => boolean;

/** Where a path is read: the resource (core attributes or an extension), or one value inside `[...]`. */
type Scope = { kind: 'resource'; schema: ResourceSchema } | { kind: 'value'; attribute: AttributeDefinition };

interface Target {
  /** The extension URN the attribute lives under, lowercased; null for the core schema and inside a value filter. */
  extension: string | null;
  attribute: AttributeDefinition;
  /** The sub-attribute compared: the one named, or `value` for a multi-valued attribute named alone. */
  subAttribute: AttributeDefinition | null;
}

/**
 * Checks `filter` against the resource type's schema and turns it into a predicate over rendered resources. RFC 7644's
 * rules: a multi-valued attribute matches when any of its values does; a multi-valued attribute named without a
 * sub-attribute compares its `value`s; strings compare without case unless the attribute is case-exact; date-times
 * order chronologically. An attribute in no schema, or an operator its type cannot take, is 400 `invalidFilter`.
 */
export function compileFilter(filter: ScimFilter, schema: ResourceSchema): ResourceMatcher {
  return compile(filter, { kind: 'resource', schema });
}

/** A value filter (`type eq "work"` in `emails[type eq "work"]`) as a predicate over one value of `attribute`. */
export function compileValueFilter(filter: ScimFilter, attribute: AttributeDefinition): ResourceMatcher {
  if (attribute.type !== 'complex') throw invalidFilter(`${attribute.name} has no sub-attributes to filter.`);
  return compile(filter, { kind: 'value', attribute });
}

function compile(filter: ScimFilter, scope: Scope): ResourceMatcher {
  switch (filter.kind) {
    case 'and': {
      const [left, right] = [compile(filter.left, scope), compile(filter.right, scope)];
      return (resource) => left(resource) && right(resource);
    }
    case 'or': {
      const [left, right] = [compile(filter.left, scope), compile(filter.right, scope)];
      return (resource) => left(resource) || right(resource);
    }
    case 'not': {
      const inner = compile(filter.filter, scope);
      return (resource) => !inner(resource);
    }
    case 'valuePath':
      return compileValuePath(filter.path, filter.filter, scope);
    case 'present': {
      const target = resolve(filter.path, scope, true);
      return (resource) => valuesOf(resource, target).some(isPresent);
    }
    case 'compare':
      return compileComparison(resolve(filter.path, scope, false), filter.operator, filter.value, filter.path);
  }
}

function compileValuePath(path: FilterPath, inner: ScimFilter, scope: Scope): ResourceMatcher {
  const target = resolve(path, scope, true);
  if (target.attribute.type !== 'complex') throw invalidFilter(`"${path.text}" has no sub-attributes to filter.`);
  const matches = compile(inner, { kind: 'value', attribute: target.attribute });
  return (resource) => elementsOf(resource, target).some((element) => isRecord(element) && matches(element));
}

function compileComparison(
  target: Target,
  operator: ComparisonOperator,
  value: FilterValue,
  path: FilterPath,
): ResourceMatcher {
  const compared = target.subAttribute ?? target.attribute;
  if (compared.type === 'complex') throw invalidFilter(`"${path.text}" is complex; compare one of its sub-attributes.`);
  if (compared.type === 'boolean' && operator !== 'eq' && operator !== 'ne')
    throw invalidFilter(`"${path.text}" is a boolean: compare it with eq or ne.`);
  if (compared.type === 'boolean' && typeof value !== 'boolean' && value !== null)
    throw invalidFilter(`"${path.text}" is a boolean: compare it with true or false.`);
  if (value === null) {
    // Null stands for "unassigned" (RFC 7643): eq null matches a resource without the attribute.
    return operator === 'eq'
      ? (resource) => valuesOf(resource, target).length === 0
      : (resource) => valuesOf(resource, target).length > 0;
  }
  const test = (actual: unknown) => compareValue(actual, operator, value, compared);
  if (operator === 'ne')
    return (resource) => !valuesOf(resource, target).some((actual) => compareValue(actual, 'eq', value, compared));
  return (resource) => valuesOf(resource, target).some(test);
}

function resolve(path: FilterPath, scope: Scope, complexAllowed: boolean): Target {
  let attributes: readonly AttributeDefinition[];
  let extension: string | null = null;
  if (scope.kind === 'value') {
    if (path.schema !== null || path.subAttribute !== null)
      throw invalidFilter(`Inside a value filter name a sub-attribute of the value, not "${path.text}".`);
    attributes = scope.attribute.subAttributes ?? [];
  } else if (path.schema === null || path.schema === scope.schema.core) {
    attributes = scope.schema.attributes;
  } else {
    const extensionAttributes = scope.schema.extensions.get(path.schema);
    if (!extensionAttributes) throw invalidFilter(`"${path.text}" names a schema this resource type does not have.`);
    attributes = extensionAttributes;
    extension = path.schema;
  }
  const attribute = findAttribute(attributes, path.attribute);
  if (!attribute) throw invalidFilter(`"${path.text}" is not an attribute of this resource type.`);
  if (path.subAttribute !== null) {
    const subAttribute = findAttribute(attribute.subAttributes ?? [], path.subAttribute);
    if (!subAttribute)
      throw invalidFilter(`"${path.text}": ${attribute.name} has no sub-attribute "${path.subAttribute}".`);
    return { extension, attribute, subAttribute };
  }
  const implicitValue =
    attribute.type === 'complex' && attribute.multiValued && !complexAllowed
      ? (findAttribute(attribute.subAttributes ?? [], 'value') ?? null)
      : null;
  return { extension, attribute, subAttribute: implicitValue };
}

/** The attribute's values (or, for a multi-valued complex attribute, its elements) in `resource`. */
function elementsOf(resource: ScimResource, target: Target): unknown[] {
  const container = target.extension === null ? resource : recordAt(resource, target.extension);
  if (!container) return [];
  const key = keyOf(container, target.attribute.name);
  const raw = key === undefined ? undefined : container[key];
  if (raw === undefined || raw === null) return [];
  return Array.isArray(raw) ? (raw as unknown[]) : [raw];
}

function valuesOf(resource: ScimResource, target: Target): unknown[] {
  const elements = elementsOf(resource, target);
  const values =
    target.subAttribute === null
      ? elements
      : elements.map((element) => (isRecord(element) ? valueAt(element, target.subAttribute?.name ?? '') : undefined));
  return values.filter((value) => value !== undefined && value !== null);
}

function recordAt(resource: ScimResource, name: string): ScimResource | undefined {
  const value = valueAt(resource, name);
  return isRecord(value) ? value : undefined;
}

function valueAt(container: ScimResource, name: string): unknown {
  const key = keyOf(container, name);
  return key === undefined ? undefined : container[key];
}

function isRecord(value: unknown): value is ScimResource {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 7644 `pr`: a non-empty value, or a complex value with at least one non-empty part. */
function isPresent(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (Array.isArray(value)) return value.some(isPresent);
  if (isRecord(value)) return Object.values(value).some(isPresent);
  return true;
}

function compareValue(
  actual: unknown,
  operator: ComparisonOperator,
  expected: string | number | boolean,
  attribute: AttributeDefinition,
): boolean {
  if (typeof actual === 'boolean' || typeof expected === 'boolean') return operator === 'eq' && actual === expected;
  if (typeof actual === 'number' && typeof expected === 'number') return ordered(actual - expected, operator);
  if (typeof actual !== 'string' || typeof expected !== 'string') return false;
  if (attribute.type === 'dateTime') {
    const [left, right] = [Date.parse(actual), Date.parse(expected)];
    if (Number.isFinite(left) && Number.isFinite(right) && !['co', 'sw', 'ew'].includes(operator))
      return ordered(left - right, operator);
  }
  const [left, right] = attribute.caseExact ? [actual, expected] : [actual.toLowerCase(), expected.toLowerCase()];
  if (operator === 'co') return left.includes(right);
  if (operator === 'sw') return left.startsWith(right);
  if (operator === 'ew') return left.endsWith(right);
  return ordered(left < right ? -1 : left > right ? 1 : 0, operator);
}

function ordered(difference: number, operator: ComparisonOperator): boolean {
  switch (operator) {
    case 'eq':
      return difference === 0;
    case 'gt':
      return difference > 0;
    case 'ge':
      return difference >= 0;
    case 'lt':
      return difference < 0;
    case 'le':
      return difference <= 0;
    default:
      return false;
  }
}
