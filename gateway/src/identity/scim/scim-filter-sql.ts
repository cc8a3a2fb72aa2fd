import type { ScimFilter } from './protocol/filter-ast.js';

/** A SQL condition with its parameters, numbered from `$1`. */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

/** How one attribute (`username`, `emails.value`; core schema, lowercased) is compared with `eq` in SQL. */
export type PushdownColumns = Readonly<
  Record<string, { type: 'string' | 'boolean'; sql: (parameter: string) => string }>
>;

/**
 * The part of a filter the store can answer by itself: `eq` comparisons with a string or boolean on the columns
 * `columns` names, joined by `and` and `or`. That covers what identity providers send when provisioning
 * (`userName eq "…"`, `externalId eq "…"`, `displayName eq "…"`); everything else is null and the list is filtered
 * in memory (scim-list.ts). The SQL must answer exactly as the in-memory evaluator would, so each column's expression
 * carries the attribute's case rule.
 */
export function pushdownOf(filter: ScimFilter, columns: PushdownColumns, coreSchema: string): SqlCondition | null {
  const params: unknown[] = [];
  const sql = conditionOf(filter, columns, coreSchema, params);
  return sql === null ? null : { sql, params };
}

function conditionOf(
  filter: ScimFilter,
  columns: PushdownColumns,
  coreSchema: string,
  params: unknown[],
): string | null {
  if (filter.kind === 'and' || filter.kind === 'or') {
    const left = conditionOf(filter.left, columns, coreSchema, params);
    const right = left === null ? null : conditionOf(filter.right, columns, coreSchema, params);
    return left === null || right === null ? null : `(${left} ${filter.kind.toUpperCase()} ${right})`;
  }
  if (filter.kind !== 'compare' || filter.operator !== 'eq') return null;
  if (typeof filter.value !== 'string' && typeof filter.value !== 'boolean') return null;
  const { path } = filter;
  if (path.schema !== null && path.schema !== coreSchema) return null;
  const key = path.subAttribute === null ? path.attribute : `${path.attribute}.${path.subAttribute}`;
  const column = Object.hasOwn(columns, key) ? columns[key] : undefined;
  // A value of another type matches nothing in memory; SQL would fail on it instead.
  if (!column || typeof filter.value !== column.type) return null;
  params.push(filter.value);
  return column.sql(`$${params.length}`);
}
