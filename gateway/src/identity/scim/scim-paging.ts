import { badRequest } from './protocol/scim-error.js';
import { parseScimFilter } from './protocol/filter.js';
import { maxPageSize } from './scim-discovery.js';

export interface ListQuery {
  filter: { attribute: string; value: string } | null;
  startIndex: number;
  count: number;
  /** `excludedAttributes=members` (Entra ID asks for groups without their members). */
  withoutMembers: boolean;
}

const integer = (raw: unknown, name: string): number | undefined => {
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw badRequest(`${name} must be an integer.`, 'invalidValue');
  // Beyond any list the store could hold; clamped so the query never carries a number its column cannot.
  return Math.min(Math.max(value, -1), 2_147_483_647);
};

/**
 * RFC 7644 §3.4.2.4 paging: `startIndex` below 1 reads as 1, `count` below 0 as 0, and a count over the page size
 * is capped (the response says how many it holds). A filter names one attribute of `supported`, compared with `eq`.
 */
export function listQueryOf(query: Record<string, unknown>, supported: Readonly<Record<string, string>>): ListQuery {
  const startIndex = Math.max(integer(query.startIndex, 'startIndex') ?? 1, 1);
  const count = Math.min(Math.max(integer(query.count, 'count') ?? 100, 0), maxPageSize);
  let filter: ListQuery['filter'] = null;
  if (typeof query.filter === 'string') {
    const parsed = parseScimFilter(query.filter);
    if (!Object.hasOwn(supported, parsed.attribute)) throw badRequest(`Filtering on "${parsed.attribute}" is not supported; filter on ${Object.keys(supported).join(', ')} with eq.`, 'invalidFilter');
    if (typeof parsed.value !== 'string') throw badRequest('The filter compares with a quoted string.', 'invalidFilter');
    filter = { attribute: parsed.attribute, value: parsed.value };
  }
  return { filter, startIndex, count, withoutMembers: excludesMembers(query) };
}

/** `excludedAttributes=members`: Entra ID reads groups without their (possibly long) member lists. */
export function excludesMembers(query: Record<string, unknown>): boolean {
  const excluded = query.excludedAttributes;
  return typeof excluded === 'string' && excluded.split(',').some((name) => name.trim().toLowerCase() === 'members');
}
