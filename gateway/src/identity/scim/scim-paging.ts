import type { ResourceSchema } from './protocol/attribute-schema.js';
import { projectionOf, type Projection } from './protocol/attribute-projection.js';
import { compileFilter } from './protocol/filter-evaluate.js';
import { invalidFilter } from './protocol/filter-tokens.js';
import { parseScimFilter } from './protocol/filter.js';
import { badRequest } from './protocol/scim-error.js';
import { maxPageSize } from './scim-discovery.js';
import type { ListRequest } from './scim-list.js';

export interface ListQuery extends ListRequest {
  projection: Projection;
}

const integer = (raw: unknown, name: string): number | undefined => {
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw badRequest(`${name} must be an integer.`, 'invalidValue');
  // Beyond any list the store could hold; clamped so the query never carries a number its column cannot.
  return Math.min(Math.max(value, -1), 2_147_483_647);
};

/**
 * A list's query parameters (RFC 7644 paging and filtering): `startIndex` below 1 reads as 1, `count` below 0 as 0,
 * and a count over the page size is capped (the response says how many it holds). The filter is parsed and checked
 * against the resource type's schema before anything is read, so a bad one is 400 `invalidFilter` at once.
 */
export function listQueryOf(query: Readonly<Record<string, unknown>>, schema: ResourceSchema): ListQuery {
  const startIndex = Math.max(integer(query.startIndex, 'startIndex') ?? 1, 1);
  const count = Math.min(Math.max(integer(query.count, 'count') ?? 100, 0), maxPageSize);
  let filter: ListQuery['filter'] = null;
  if (query.filter !== undefined) {
    if (typeof query.filter !== 'string') throw invalidFilter('Send one filter parameter.');
    const tree = parseScimFilter(query.filter);
    filter = { tree, matches: compileFilter(tree, schema) };
  }
  return { filter, startIndex, count, projection: projectionOf(query, schema) };
}
