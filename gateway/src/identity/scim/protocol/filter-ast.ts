/**
 * The syntax tree of an RFC 7644 filter. The parser (filter.ts) builds it from text; the evaluator
 * (filter-evaluate.ts) runs it against a resource; the store pushes the simplest shape down to SQL.
 */

/** `[URI ":"] ATTRNAME ["." subAttr]`, names lowercased (attribute names are case-insensitive). */
export interface FilterPath {
  /** As sent, for error details. */
  text: string;
  /** The schema URN prefix, lowercased; null without one. */
  schema: string | null;
  attribute: string;
  subAttribute: string | null;
}

export const comparisonOperators = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'] as const;
export type ComparisonOperator = (typeof comparisonOperators)[number];
export type FilterValue = string | number | boolean | null;

export type ScimFilter =
  | { kind: 'compare'; path: FilterPath; operator: ComparisonOperator; value: FilterValue }
  | { kind: 'present'; path: FilterPath }
  | { kind: 'and' | 'or'; left: ScimFilter; right: ScimFilter }
  | { kind: 'not'; filter: ScimFilter }
  /** `emails[type eq "work"]`: one value of the multi-valued `path` satisfies `filter`, whose paths are sub-attributes. */
  | { kind: 'valuePath'; path: FilterPath; filter: ScimFilter };

// ATTRNAME = ALPHA *(nameChar); `$ref` is RFC 7643's one attribute that starts otherwise.
const attributeName = /^(?:[a-z][\w-]*|\$ref)$/i;

/**
 * Splits an attribute path: the URN prefix is everything up to the last colon (a URN's own parts hold dots, `2.0`),
 * then the name and at most one sub-attribute. Null when the text is not an attribute path.
 */
export function parseFilterPath(text: string): FilterPath | null {
  const colon = text.lastIndexOf(':');
  const schema = colon === -1 ? null : text.slice(0, colon).toLowerCase();
  if (schema !== null && !/^urn:[a-z0-9][a-z0-9-]{0,31}:[\w.:%-]+$/i.test(schema)) return null;
  const parts = text.slice(colon + 1).split('.');
  if (parts.length > 2 || !parts.every((part) => attributeName.test(part))) return null;
  const [attribute, subAttribute] = parts;
  if (attribute === undefined) return null;
  return { text, schema, attribute: attribute.toLowerCase(), subAttribute: subAttribute?.toLowerCase() ?? null };
}
