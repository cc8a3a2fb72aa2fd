import { findAttribute, keyOf, type AttributeDefinition, type ResourceSchema } from './attribute-schema.js';
import { parseFilterPath } from './filter-ast.js';
import { badRequest } from './scim-error.js';

/** One attribute an `attributes` or `excludedAttributes` list names, resolved against the resource type's schema. */
interface Selection {
  /** The extension URN as the schema writes it (lowercased); null for the core schema. */
  extension: string | null;
  /** Null when the whole extension is named. */
  attribute: AttributeDefinition | null;
  subAttribute: AttributeDefinition | null;
}

export interface Projection {
  /** Null when the client did not ask for a subset. */
  attributes: Selection[] | null;
  excluded: Selection[];
}

type Resource = Record<string, unknown>;
const maxListLength = 4000;

/**
 * Reads `attributes` and `excludedAttributes` (RFC 7644 "attributes" query parameters): comma-separated attribute
 * paths, with or without their schema URN, names without case. A name the resource type does not have is ignored, as
 * it selects nothing; a list that is not attribute paths is 400 `invalidValue`.
 */
export function projectionOf(query: Readonly<Record<string, unknown>>, schema: ResourceSchema): Projection {
  const attributes = listOf(query.attributes, 'attributes');
  return {
    // An empty list (`attributes=`) asks for no subset.
    attributes: attributes === null || attributes.length === 0 ? null : selectionsOf(attributes, schema),
    excluded: selectionsOf(listOf(query.excludedAttributes, 'excludedAttributes') ?? [], schema),
  };
}

/**
 * RFC 7644's "returned" rules: `id` and `schemas` (returned "always") come back whatever was asked; `attributes`
 * replaces the default set with the ones named (a sub-attribute keeps only that part of its parent); then
 * `excludedAttributes` takes away what it names. `resource` is not changed.
 */
export function project(resource: Resource, schema: ResourceSchema, projection: Projection): Resource {
  let result: Resource = resource;
  if (projection.attributes !== null) {
    result = {};
    for (const attribute of schema.attributes.filter((definition) => definition.returned === 'always'))
      copyWhole(resource, result, attribute.name);
    // Whole attributes first, so a sub-attribute named as well does not narrow one that is asked for whole.
    const ordered = [...projection.attributes].sort(
      (left, right) => Number(left.subAttribute !== null) - Number(right.subAttribute !== null),
    );
    for (const selection of ordered) include(resource, result, selection);
  }
  if (projection.excluded.length > 0) {
    result = structuredClone(result);
    for (const selection of projection.excluded) exclude(result, selection);
  }
  return result;
}

function listOf(raw: unknown, name: string): string[] | null {
  if (raw === undefined) return null;
  const parts = (Array.isArray(raw) ? (raw as unknown[]) : [raw]).map((part) => (typeof part === 'string' ? part : ''));
  const text = parts.join(',');
  if (text.length > maxListLength)
    throw badRequest(`${name} is longer than ${maxListLength} characters.`, 'invalidValue');
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function selectionsOf(names: readonly string[], schema: ResourceSchema): Selection[] {
  return names.flatMap((name): Selection[] => {
    const lowered = name.toLowerCase();
    if (schema.extensions.has(lowered)) return [{ extension: lowered, attribute: null, subAttribute: null }];
    const path = parseFilterPath(name);
    if (!path)
      throw badRequest(
        `"${name}" is not an attribute path (attribute, attribute.subAttribute, optionally after its schema URN).`,
        'invalidValue',
      );
    const extension = path.schema === null || path.schema === schema.core ? null : path.schema;
    const attributes = extension === null ? schema.attributes : schema.extensions.get(extension);
    const attribute = attributes ? findAttribute(attributes, path.attribute) : undefined;
    if (!attribute) return [];
    if (path.subAttribute === null) return [{ extension, attribute, subAttribute: null }];
    const subAttribute = findAttribute(attribute.subAttributes ?? [], path.subAttribute);
    return subAttribute ? [{ extension, attribute, subAttribute }] : [];
  });
}

function isRecord(value: unknown): value is Resource {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function copyWhole(source: Resource, target: Resource, name: string): void {
  const key = keyOf(source, name);
  if (key !== undefined) target[key] = source[key];
}

/** The object that holds `selection`'s attribute in `resource` (the extension's object for an extension attribute). */
function containerOf(resource: Resource, extension: string | null): Resource | undefined {
  if (extension === null) return resource;
  const key = keyOf(resource, extension);
  const value = key === undefined ? undefined : resource[key];
  return isRecord(value) ? value : undefined;
}

function include(source: Resource, target: Resource, selection: Selection): void {
  if (selection.attribute === null) {
    copyWhole(source, target, selection.extension ?? '');
    return;
  }
  const from = containerOf(source, selection.extension);
  if (!from) return;
  let into = target;
  if (selection.extension !== null) {
    const extensionKey = keyOf(source, selection.extension) ?? selection.extension;
    const existing = target[extensionKey];
    into = isRecord(existing) ? existing : {};
    target[extensionKey] = into;
  }
  const key = keyOf(from, selection.attribute.name);
  if (key === undefined) return;
  if (selection.subAttribute === null) {
    into[key] = from[key];
    return;
  }
  // The whole attribute is selected too (copied as the same value): it stays whole.
  if (into[key] === from[key]) return;
  const picked = pickSub(from[key], into[key], selection.subAttribute.name);
  if (picked !== undefined) into[key] = picked;
}

/** `emails.value`: each value keeps only that sub-attribute, merged with parts another selection already picked. */
function pickSub(value: unknown, already: unknown, sub: string): unknown {
  if (Array.isArray(value)) {
    const previous = Array.isArray(already) ? (already as unknown[]) : [];
    return (value as unknown[]).map(
      (element, index) => pickSub(element, previous[index], sub) ?? previous[index] ?? {},
    );
  }
  if (!isRecord(value)) return undefined;
  const key = keyOf(value, sub);
  const base = isRecord(already) ? already : {};
  return key === undefined ? base : { ...base, [key]: value[key] };
}

function exclude(resource: Resource, selection: Selection): void {
  if (selection.attribute === null) {
    const key = keyOf(resource, selection.extension ?? '');
    if (key !== undefined) delete resource[key];
    return;
  }
  // RFC 7644: excludedAttributes has no effect on attributes returned "always".
  if (selection.attribute.returned === 'always') return;
  const container = containerOf(resource, selection.extension);
  const key = container ? keyOf(container, selection.attribute.name) : undefined;
  if (!container || key === undefined) return;
  if (selection.subAttribute === null) {
    delete container[key];
    return;
  }
  const value = container[key];
  for (const element of Array.isArray(value) ? (value as unknown[]) : [value]) {
    if (!isRecord(element)) continue;
    const subKey = keyOf(element, selection.subAttribute.name);
    if (subKey !== undefined) delete element[subKey];
  }
}
